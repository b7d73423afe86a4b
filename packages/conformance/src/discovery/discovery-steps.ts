// Discovery's calls and the steps they make up (src/discovery/prepare.ts): one HTTP layer whose exchanges are
// kept for the report, each tagged with its step, and judged against what the seed states; each
// step's status, evidence and time.

import { matchOperation } from "@platform-api/spec";
import { specModel } from "../facts/spec.js";
import { decodeExchange, judgeAnswer } from "../http/answer.js";
import { createHttp, type Http } from "../http/http.js";
import type { ActivityHooks } from "../shared/activity.js";
import type { DiscoveryStep, DiscoveryStepId, Evidence } from "../shared/context.js";
import type { ObservedExchange } from "../shared/exchange.js";
import { createPacer } from "../shared/pacer.js";
import { createRedactor } from "../shared/redact.js";
import type { StartedTarget } from "./target.js";

export interface DiscoverySteps {
  http: Http;
  /** The step the next calls are made for. */
  begin(id: DiscoveryStepId): void;
  /** Ends the current step: its evidence is what was called since the step before ended. */
  end(status: DiscoveryStep["status"], reason?: string | null): void;
  /**
   * The last answer's deviations from what the seed states, in a sentence (discovery's calls are
   * one at a time: the last judgement is the answer's).
   */
  broken(): string | undefined;
  steps: DiscoveryStep[];
  exchanges: ObservedExchange[];
}

export function createDiscoverySteps(
  target: StartedTarget,
  rateLimit: number,
  notice: (line: string) => void,
  activity?: ActivityHooks,
): DiscoverySteps {
  const steps: DiscoveryStep[] = [];
  const exchanges: ObservedExchange[] = [];
  // What the last answer breaks of what the seed states (discovery's calls go one at a time).
  let lastBroken: string[] = [];
  const redact = createRedactor([target.apiKey, target.resellerApiKey]);
  let evidence: Evidence[] = [];
  let by: DiscoveryStepId = "discovery.current-client";
  const http = createHttp({
    baseUrl: target.url,
    apiKey: target.apiKey,
    resellerApiKey: target.resellerApiKey,
    pacer: createPacer(rateLimit),
    timeScale: target.timeScale,
    record: (e) => evidence.push(e),
    ...(activity ? { sending: activity.sending, waiting: activity.waiting } : {}),
    exchanged: (exchange) => {
      activity?.exchanged(exchange.at, exchange.durationMs);
      exchanges.push({ ...exchange, by });
      const match = matchOperation(specModel(), exchange.method, exchange.url.split("?")[0] ?? "");
      if (exchange.status === null || !match) return;
      const answered = exchange as ObservedExchange & { status: number };
      const { answer, evidence } = decodeExchange(answered, match.operation.path, redact);
      lastBroken = judgeAnswer(answer, evidence)?.must ?? [];
    },
    // Discovery's calls go one at a time: a silent target is named within seconds, once per try of
    // the call that waits, rather than after a minute of nothing (the scenarios' calls say nothing).
    stalled: (stall) => notice(stall.message),
  });
  // A step's time runs from the end of the one before: its requests, their retries and the waits
  // between them (the scenario that reports it runs in a few milliseconds, long after).
  let stepStarted = performance.now();
  return {
    http,
    begin(id) {
      by = id;
    },
    end(status, reason = null) {
      const now = performance.now();
      steps.push({ id: by, status, reason, evidence, durationMs: Math.round(now - stepStarted) });
      stepStarted = now;
      evidence = [];
    },
    broken() {
      const problems = lastBroken;
      return problems.length > 0
        ? `the answer breaks the spec: ${problems.slice(0, 5).join("; ")}`
        : undefined;
    },
    steps,
    exchanges,
  };
}
