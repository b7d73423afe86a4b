// An active run's judge: one for the run, in the scenario worker (one worker, one module graph:
// vitest.scenarios.config.ts), fed every exchange of the discovery, the drivers and the stories as
// they happen. The rule results (scenarios/95-rules.scenario.ts) read their verdicts from it.

import type { RunContext } from "./context.js";
import { createJudge, type Judge } from "./judge/judge.js";

let current: { run: RunContext; judge: Judge } | undefined;
/** What a driver met that kept it from driving an operation (no answer, a refusal), by operation. */
const unfinished = new Map<string, string[]>();

export function runJudge(run: RunContext): Judge {
  if (current?.run !== run) {
    const judge = createJudge({ secrets: [run.target.apiKey, run.target.resellerApiKey] });
    for (const exchange of run.discovery.exchanges) judge.judge(exchange);
    current = { run, judge };
    unfinished.clear();
  }
  return current.judge;
}

export function driverUnfinished(driverId: string, operationId: string, problem: string): void {
  const key = `${driverId}|${operationId}`;
  unfinished.set(key, [...(unfinished.get(key) ?? []), problem]);
}

/** Why a driver could not finish its calls of an operation (none: it did). */
export const unfinishedOf = (driverId: string, operationId: string): string[] =>
  unfinished.get(`${driverId}|${operationId}`) ?? [];
