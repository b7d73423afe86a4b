// The judge: exchanges, one at a time, judged by every rule of the registry (src/rules/) that
// applies to their operation: each answer against the spec, and the platform's rules across
// exchanges (walks of a list, a task's life, a 429's Retry-After, a token's standing). One judge
// for every producer: an active run's drivers and stories, `conformance observe` (live, through
// the proxy) and `conformance verify --har` (recorded) get the same results, severities and evidence.
//
// What it keeps across exchanges, each kind by a tracker of its own (walks.ts, tasks.ts, tokens.ts,
// rate-windows.ts, secrets.ts, tallies.ts, traffic-counts.ts), is bounded (LIMITS): walks, tasks
// and tokens are forgotten least recently used first, and the report says how many were. This file
// only dispatches: each exchange to its trackers, then to the rules.

import { matchOperation, type OperationModel } from "@platform-api/spec";
import { credentialValues } from "../facts/credential-names.js";
import { keyFor } from "../facts/operations.js";
import { burstThreshold } from "../facts/rate.js";
import { specModel } from "../facts/spec.js";
import { decodeExchange, judgeAnswer, pathOf } from "../http/answer.js";
import { RULES, resultIdOf } from "../rules/index.js";
import { facts } from "../rules/task-rules.js";
import type { AnswerEvent, Rule, RuleEvents, TaskEvent } from "../rules/types.js";
import type { Severity } from "../shared/context.js";
import type { ObservedExchange } from "../shared/exchange.js";
import { fieldOf, isRecord } from "../shared/json.js";
import type { JudgeLimits, Report, ScenarioResult, TrafficSummary } from "../shared/results.js";
import { buildReport } from "./build-report.js";
import { offsetPageOf, pagePageOf } from "./list-pages.js";
import { createRateWindows } from "./rate-windows.js";
import { createSecrets, REDACTED_TOKENS } from "./secrets.js";
import { createTallies, type Tallies, type Tally, verdictOf } from "./tallies.js";
import { createTasks, type Tasks } from "./tasks.js";
import { createTokens } from "./tokens.js";
import { createTrafficCounts } from "./traffic-counts.js";
import { createWalks } from "./walks.js";

export { type Tally, verdictOf };

/** What the judge keeps at most (the README's "Limits"). */
export const LIMITS = {
  /** Walks of a list followed at once. */
  walks: 256,
  /** Item identities remembered per walk (past it, the walk's repeats and total are not judged). */
  itemsPerWalk: 10_000,
  /** Tasks whose last state (and creating operation) is remembered. */
  tasks: 10_000,
  /** Distinct tokens whose standing is remembered. */
  tokens: 64,
  /** Failing exchanges kept as evidence per result, and problems quoted. */
  evidence: 20,
  problems: 10,
  /** Operations the traffic called that the spec does not describe, listed by name. */
  undescribed: 20,
} as const satisfies JudgeLimits;

export type Limits = JudgeLimits;

export interface Judge {
  judge(exchange: ObservedExchange): void;
  summary(): TrafficSummary;
  /** The tally of one result id, undefined when its rule judged nothing yet. */
  tally(id: string): Tally | undefined;
  /** The results so far (every rule × operation; unjudged ones skipped with the reason). */
  results(options: { strict: boolean }): ScenarioResult[];
  /** The whole report of traffic, every string redacted of every token the traffic carried. */
  report(meta: {
    target: string;
    startedAt: Date;
    options: Record<string, unknown>;
    strict: boolean;
  }): Report;
  /** Redacts every token seen so far (and anything shaped like one) from a line. */
  redact(text: string): string;
  /** The label of a credential ("token 1"), what a recording writes instead of it. */
  label(credential: string): string;
}

export interface JudgeOptions {
  /**
   * False when the traffic is known to carry no credentials though it had them (a sanitized HAR):
   * a request without Authorization is then not taken for one sent without it. Default true.
   */
  credentialsRecorded?: boolean;
  /** Smaller bounds than LIMITS (tests of what is dropped). */
  limits?: Partial<Limits>;
  /** Told the first time each result fails (redacted): the live line of `observe`. */
  onFirstFailure?(id: string, severity: Severity, problem: string): void;
  /** Environment variables whose values are redacted too (the usual key variables). */
  env?: Record<string, string | undefined>;
  keyVariables?: string[];
  /** Secrets known before any exchange (an active run's keys): redacted from everything kept. */
  secrets?: (string | undefined)[];
  /**
   * The keys whose role is known (observe and verify: the key variables' values), for traffic
   * whose exchanges do not say which key they carried (ObservedExchange.tokenRole).
   */
  roles?: { client?: string; reseller?: string };
}

export function createJudge(options: JudgeOptions = {}): Judge {
  const model = specModel();
  const limits: Limits = { ...LIMITS, ...options.limits };
  const { poll } = facts();
  const trackers = trackersFor(options, limits);
  const { secrets, tokens, walks, tasks, rateWindows, tallies, traffic } = trackers;
  const { redact } = secrets;
  const emit = <E extends keyof RuleEvents>(on: E, event: RuleEvents[E] | undefined) =>
    dispatch(tallies, on, event);

  function judge(exchange: ObservedExchange): void {
    traffic.exchange();
    // Before anything of the exchange is redacted: an answer may echo what the request carried.
    for (const value of credentialValues(exchange)) secrets.learn(value);
    if (exchange.status === null) {
      traffic.unanswered();
      return;
    }
    const [path = "", search = ""] = splitUrl(exchange.url);
    const match = matchOperation(model, exchange.method, path);
    if (!match) {
      traffic.undescribed(pathOf(redact(`${exchange.method.toUpperCase()} ${path}`)));
      return;
    }
    const { auth, acceptedBy } = tokens.of(exchange.requestHeaders.authorization, exchange.tokenRole);
    if (exchange.body === undefined) {
      traffic.bodyDropped();
      return;
    }
    traffic.judged();
    const { operation, params } = match;
    const answered = exchange as ObservedExchange & { status: number };
    const end = exchange.at + exchange.durationMs;
    const base: AnswerEvent = {
      exchange,
      operation,
      params,
      query: new URLSearchParams(search),
      ...answerOf(answered, operation, redact),
      auth,
      recent: rateWindows.answered(auth.token ?? "", exchange.at, end, answered.status),
    };
    emit("answer", base);
    const ok = answered.status >= 200 && answered.status < 300;
    if (answered.status === 200 && operation.pagination?.style === "offset")
      emit("offsetPage", offsetPageOf(base, walks));
    if (answered.status === 200 && operation.pagination?.style === "page")
      emit("pagePage", pagePageOf(base, walks));
    if (answered.status === 200 && operation.operationId === poll.operationId) polled(base);
    if (ok && operation.asyncTask) {
      const ids = fieldOf(base.answer.body, operation.asyncTask.tasksField ?? "tasks");
      if (Array.isArray(ids)) tasks.started(ids, operation.asyncTask.createdResourcesKey);
    }
    if (ok) acceptedBy?.add(keyFor(operation));
  }

  // Judged against what was kept of the task before this poll, which then keeps its state.
  function polled(base: AnswerEvent) {
    const event = taskPollOf(base, tasks, poll.parameters);
    emit("task", event);
    if (event) tasks.polled(event.taskId, event.state);
  }

  const summary = () => summaryOf(trackers, limits);

  const results = ({ strict }: { strict: boolean }) => resultsOf(tallies.get, strict);

  return {
    judge,
    summary,
    tally: tallies.get,
    results,
    redact,
    label: tokens.label,
    report({ target, startedAt, options: reportOptions, strict }) {
      // Once more with every token the traffic carried: one seen late is redacted from early evidence too.
      return buildReport(
        { target, startedAt, options: reportOptions, scenarios: results({ strict }), traffic: summary() },
        redact,
      );
    },
  };
}

/** The trackers of one judge, each given the options and bounds it needs. */
function trackersFor(options: JudgeOptions, limits: Limits) {
  const { finished, failed } = facts();
  const { periodSeconds, exceededStatus } = specModel().conventions.requestRate;
  const secrets = createSecrets({
    limit: REDACTED_TOKENS,
    known: options.secrets ?? [],
    env: options.env ?? {},
    keyVariables: options.keyVariables ?? [],
  });
  return {
    secrets,
    tokens: createTokens({
      limit: limits.tokens,
      credentialsRecorded: options.credentialsRecorded ?? true,
      roles: options.roles ?? {},
      learn: secrets.learn,
    }),
    walks: createWalks({ walks: limits.walks, itemsPerWalk: limits.itemsPerWalk }),
    tasks: createTasks({ tasks: limits.tasks, terminal: [finished, ...failed] }),
    rateWindows: createRateWindows({
      tokens: limits.tokens,
      succeeded: burstThreshold() + 1,
      periodSeconds,
      exceededStatus,
    }),
    tallies: createTallies({
      problems: limits.problems,
      evidence: limits.evidence,
      redact: secrets.redact,
      onFirstFailure: options.onFirstFailure,
    }),
    traffic: createTrafficCounts({ undescribed: limits.undescribed }),
  };
}

type Trackers = ReturnType<typeof trackersFor>;

/** An event to every rule of the registry that judges it on its operation; each verdict tallied. */
function dispatch<E extends keyof RuleEvents>(tallies: Tallies, on: E, event: RuleEvents[E] | undefined) {
  if (event === undefined) return;
  for (const rule of RULES) {
    if (rule.on !== on || !rule.applies(event.operation)) continue;
    const verdict = (rule as unknown as Rule<E>).judge(event);
    const { evidence, exchange } = event;
    if (verdict !== undefined)
      tallies.record(rule, event.operation.operationId, verdict, { evidence, by: exchange.by });
  }
}

/** What the traffic held and what the judge let go to stay within its bounds. */
function summaryOf({ traffic, walks, tasks, tokens }: Trackers, limits: Limits): TrafficSummary {
  return {
    ...traffic.counts,
    undescribed: traffic.undescribedSeen,
    dropped: {
      ...walks.dropped,
      tasks: tasks.dropped,
      tokens: tokens.dropped,
      bodies: traffic.droppedBodies,
    },
    limits,
  };
}

/** The results so far: every rule × operation, its verdict from its tally. */
function resultsOf(tallyOf: (id: string) => Tally | undefined, strict: boolean): ScenarioResult[] {
  return plannedResults().map(({ id, rule, operation }) => {
    const t = tallyOf(id);
    return {
      id,
      title: rule.title(operation),
      severity: rule.severity,
      operation: t ? [...t.operations].join(", ") : operation.operationId,
      ...(rule.perOperation ? { check: rule.id } : {}),
      durationMs: 0,
      ...verdictOf(rule, operation, t, strict),
    };
  });
}

/** The answer decoded and judged against the spec, with what breaks HTTP itself first. */
function answerOf(
  exchange: ObservedExchange & { status: number },
  operation: OperationModel,
  redact: (text: string) => string,
): Pick<AnswerEvent, "answer" | "evidence" | "judged"> {
  const { answer, evidence } = decodeExchange(exchange, operation.path, redact, operation.operationId);
  // Any 4xx refuses a request sent off the spec on purpose, documented or not: not judged against the spec.
  const refused = exchange.offSpec !== undefined && exchange.status >= 400 && exchange.status < 500;
  const judged = (refused ? undefined : judgeAnswer(answer, evidence)) ?? {
    operationId: operation.operationId,
    evidence,
    must: [],
    should: [],
  };
  // What breaks HTTP itself comes first: the rest of the judgement stands on it.
  if (exchange.invalid?.length)
    judged.must.unshift(
      ...exchange.invalid.map((p) => `${answer.method} ${evidence.path} → ${exchange.status}: ${redact(p)}`),
    );
  return { answer, evidence, judged };
}

/** A poll's task and state, with what was kept of the task before it; undefined when the answer names neither. */
function taskPollOf(
  base: AnswerEvent,
  tasks: Tasks,
  pollParameters: readonly { in: string; name: string }[],
): TaskEvent | undefined {
  const body = base.answer.body;
  const taskId = base.params[pollParameters.find((p) => p.in === "path")?.name ?? ""];
  const state = fieldOf(body, "state");
  if (!isRecord(body) || typeof state !== "string" || taskId === undefined) return;
  const seen = tasks.seen(taskId);
  return {
    ...base,
    taskId,
    state,
    before: seen?.state,
    body,
    createdResourcesKey: seen?.createdResourcesKey,
  };
}

/** Every result the registry can give, in report order: per rule, its operations in the spec's order. */
export function plannedResults(): { id: string; rule: Rule; operation: OperationModel }[] {
  const operations = specModel().operations;
  return RULES.flatMap((rule) => {
    const applies = operations.filter((o) => rule.applies(o));
    if (!rule.perOperation)
      return applies.length > 0 ? [{ id: rule.id, rule, operation: applies[0] as OperationModel }] : [];
    return applies.map((operation) => ({ id: resultIdOf(rule, operation.operationId), rule, operation }));
  });
}

/** Path and query of a request-target; an absolute URL is read for its path. */
function splitUrl(url: string): [string, string] {
  const target = /^[a-z][a-z0-9+.-]*:\/\//i.test(url)
    ? url.replace(/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i, "")
    : url;
  const at = target.indexOf("?");
  const path = at < 0 ? target : target.slice(0, at);
  return [path === "" ? "/" : path, at < 0 ? "" : target.slice(at + 1)];
}
