// An active run's judge: one for the run, in the scenario worker (one worker, one module graph:
// vitest.scenarios.config.ts), fed every exchange of the discovery, the drivers and the stories as
// they happen. The rule results (scenarios/95-rules.scenario.ts) read their verdicts from it.

import { appendFileSync } from "node:fs";
import type { RunContext } from "./context.js";
import type { ObservedExchange } from "./judge/exchange.js";
import { createJudge, type Judge } from "./judge/judge.js";

let current: { run: RunContext; judge: Judge } | undefined;
/** What a driver met that kept it from driving an operation (no answer, a refusal), by operation. */
const unfinished = new Map<string, string[]>();

export function runJudge(run: RunContext): Judge {
  if (current?.run !== run) {
    const inner = createJudge({ secrets: [run.target.apiKey, run.target.resellerApiKey] });
    const file = run.recordExchanges;
    const judge: Judge = !file
      ? inner
      : {
          ...inner,
          judge(exchange) {
            inner.judge(exchange);
            appendFileSync(file, `${JSON.stringify(labelled(exchange, inner))}\n`);
          },
        };
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

/** A story's step that could not finish: said in the results it feeds. */
export function stepUnfinished(resultIds: string[], problem: string): void {
  for (const id of resultIds)
    unfinished.set(`step|${id}`, [...(unfinished.get(`step|${id}`) ?? []), problem]);
}

/** Why a story's steps could not finish the calls a result judges (none: they did). */
export const stepUnfinishedOf = (resultId: string): string[] => unfinished.get(`step|${resultId}`) ?? [];

/** Why a driver could not finish its calls of an operation (none: it did). */
export const unfinishedOf = (driverId: string, operationId: string): string[] =>
  unfinished.get(`${driverId}|${operationId}`) ?? [];

/** The exchange with its token replaced by the judge's label for it ("APIKey token 1"). */
function labelled(exchange: ObservedExchange, judge: Judge): ObservedExchange {
  const header = exchange.requestHeaders.authorization;
  if (header === undefined)
    return { ...exchange, ...(exchange.body === undefined ? {} : { body: judge.redact(exchange.body) }) };
  const [scheme = "", ...rest] = header.trim().split(/\s+/);
  const secret = rest.join(" ");
  const authorization = secret === "" ? header : `${scheme} ${judge.label(secret)}`;
  return {
    ...exchange,
    requestHeaders: { ...exchange.requestHeaders, authorization },
    ...(exchange.body === undefined ? {} : { body: judge.redact(exchange.body) }),
  };
}
