// An active run's judge: one for the run, in the scenario worker (one worker, one module graph:
// vitest.scenarios.config.ts), fed every exchange of the discovery, the drivers and the stories as
// they happen. The rule results (scenarios/95-rules.scenario.ts) read their verdicts from it.

import { appendFileSync } from "node:fs";
import { createJudge, type Judge } from "../judge/judge.js";
import type { Evidence, RunContext } from "../shared/context.js";
import type { ObservedExchange } from "../shared/exchange.js";

let current: { run: RunContext; judge: Judge } | undefined;
/** What a driver met that kept it from driving an operation (no answer, a refusal), by operation. */
const unfinished = new Map<string, string[]>();
/** The exchanges each of those failed on (the key's problems', in their order). */
const unfinishedOn = new Map<string, Evidence[]>();
/** A driver that finished only when run again: the 5xx or lost answer that stopped it first, and the re-send's. */
const flakyDrives = new Map<string, { problem: string; failed: Evidence[]; again: Evidence[] }[]>();

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
    unfinishedOn.clear();
    flakyDrives.clear();
  }
  return current.judge;
}

export function driverUnfinished(
  driverId: string,
  operationId: string,
  problem: string,
  failedOn: Evidence[] = [],
): void {
  const key = `${driverId}|${operationId}`;
  unfinished.set(key, [...(unfinished.get(key) ?? []), problem]);
  unfinishedOn.set(key, [...(unfinishedOn.get(key) ?? []), ...failedOn]);
}

/** A driver that finished when run again after a 5xx or lost answer that did not repeat. */
export function driverFlaky(
  driverId: string,
  operationId: string,
  flaky: { problem: string; failed: Evidence[]; again: Evidence[] },
): void {
  const key = `${driverId}|${operationId}`;
  flakyDrives.set(key, [...(flakyDrives.get(key) ?? []), flaky]);
}

/** What made a driver of an operation flaky (none: it was not). */
export const flakyDrivesOf = (driverId: string, operationId: string) =>
  flakyDrives.get(`${driverId}|${operationId}`) ?? [];

/** The exchanges a driver's (or a step's) unfinished calls failed on. */
export const unfinishedEvidenceOf = (driverId: string, operationId: string): Evidence[] =>
  unfinishedOn.get(`${driverId}|${operationId}`) ?? [];

/** A story's step that could not finish: said in the results it feeds. */
export function stepUnfinished(resultIds: string[], problem: string, failedOn: Evidence[] = []): void {
  for (const id of resultIds) {
    unfinished.set(`step|${id}`, [...(unfinished.get(`step|${id}`) ?? []), problem]);
    unfinishedOn.set(`step|${id}`, [...(unfinishedOn.get(`step|${id}`) ?? []), ...failedOn]);
  }
}

/** Why a story's steps could not finish the calls a result judges (none: they did). */
export const stepUnfinishedOf = (resultId: string): string[] => unfinished.get(`step|${resultId}`) ?? [];

/** Why a driver could not finish its calls of an operation (none: it did). */
export const unfinishedOf = (driverId: string, operationId: string): string[] =>
  unfinished.get(`${driverId}|${operationId}`) ?? [];

/** The exchange with its token replaced by the judge's label for it (the scheme's word, then "token 1"). */
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
