// Every answer of the run, judged, kept until the schema results report them. The scenario files
// share one worker and one module graph (vitest.scenarios.config.ts), so this one list sees the
// answers of every scenario; the discovery's come in the run context.

import type { RecordedExchange } from "./context.js";

const recorded: RecordedExchange[] = [];

export function recordExchange(exchange: RecordedExchange): void {
  recorded.push(exchange);
}

/** Every judged answer of an operation so far, in the order they came. */
export const exchangesOf = (operationId: string): RecordedExchange[] =>
  recorded.filter((e) => e.operationId === operationId);
