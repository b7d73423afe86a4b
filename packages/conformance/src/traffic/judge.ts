// The traffic judge: exchanges a client made, one at a time, judged by the rules of
// src/traffic/rules/ — each answer against the spec, and the platform's rules across exchanges
// (offset walks, page links, a task's life, a 429's Retry-After, a token's standing). The same
// results, severities and evidence an active run reports, for `conformance observe` (live, through
// the proxy) and `conformance verify --har` (recorded).
//
// What it keeps is bounded (LIMITS): walks, tasks and tokens are forgotten least recently used
// first, and the report says how many were.

import { matchOperation, type OperationModel } from "@platform-api/spec";
import type { Evidence, Severity } from "../context.js";
import type { Answer } from "../http.js";
import { excerptOf } from "../http.js";
import { fieldOf, isRecord } from "../json.js";
import { judgeAnswer } from "../judge.js";
import { identity } from "../lists.js";
import { type OffsetList, offsetList, readOffsetPage } from "../offset.js";
import { keyFor } from "../operations.js";
import { type PageList, pageList } from "../pages.js";
import { burstThreshold } from "../rate.js";
import { createGrowingRedactor, createUsageRedactor } from "../redact.js";
import { type Report, redactDeep, type ScenarioResult, summarize } from "../report.js";
import { specModel } from "../spec.js";
import { BoundedMap } from "./bounded.js";
import type { ObservedExchange } from "./exchange.js";
import { TRAFFIC_RULES, type TrafficEvents, type TrafficRule } from "./rules/index.js";
import { facts } from "./rules/task-rules.js";
import type { AnswerEvent, AuthSeen } from "./rules/types.js";

/** Distinct tokens redacted from what is kept (each a few dozen bytes; far more than any traffic holds). */
const REDACTED_TOKENS = 1024;

/** What the judge keeps at most (the README's "Limits"). */
export const LIMITS = {
  /** Offset walks followed at once. */
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
} as const;

export interface TrafficSummary {
  /** Every exchange seen. */
  exchanges: number;
  /** Exchanges of an operation the spec describes, judged. */
  judged: number;
  /** Requests that got no answer (the upstream unreachable, the connection cut). */
  noAnswer: number;
  /** Exchanges to an operation the spec does not describe: counted apart, never judged. */
  undescribed: { count: number; examples: string[] };
  /** What the judge let go to stay within LIMITS; all zero when it kept everything. */
  dropped: { walks: number; items: number; tasks: number; tokens: number; bodies: number };
  limits: Limits;
}

interface Tally {
  rule: TrafficRule;
  operations: Set<string>;
  judged: number;
  failing: number;
  problems: string[];
  failed: Evidence[];
  sample: Evidence[];
}

interface Walk {
  step: number;
  count: number;
  offsets: Set<number>;
  seen: Set<string> | null;
  startedAtZero: boolean;
}

interface TaskSeen {
  state?: string;
  createdResourcesKey?: string;
}

export interface TrafficJudge {
  judge(exchange: ObservedExchange): void;
  summary(): TrafficSummary;
  /** The results so far, as an active run reports them (every rule × operation; unseen ones skipped). */
  results(options: { strict: boolean }): ScenarioResult[];
  /** The whole report, every string redacted of every token the traffic carried. */
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

export type Limits = { -readonly [K in keyof typeof LIMITS]: number };

export interface TrafficJudgeOptions {
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
}

export function createTrafficJudge(options: TrafficJudgeOptions = {}): TrafficJudge {
  const model = specModel();
  const limits: Limits = { ...LIMITS, ...options.limits };
  const usage = createUsageRedactor(options.env ?? {}, options.keyVariables ?? []);
  const tokens = new Map<string, { label: string; acceptedBy: Set<string> }>();
  // Each token's patterns built once, when it is first seen (a token per request stays linear).
  const tokenRedact = createGrowingRedactor();
  const redact = (text: string) => usage(tokenRedact(text));
  const dropped = { walks: 0, items: 0, tasks: 0, tokens: 0, bodies: 0 };
  const walks = new BoundedMap<string, Walk>(limits.walks, () => dropped.walks++);
  // A task forgotten after its terminal state loses nothing; one forgotten before it does.
  const tasks = new BoundedMap<string, TaskSeen>(limits.tasks, (_id, seen) => {
    const { finished, failed } = facts();
    if (seen.state !== finished && !failed.includes(seen.state ?? "")) dropped.tasks++;
  });
  const tallies = new Map<string, Tally>();
  // Per token, when its latest 2xx exchanges started and ended (enough to count one period past
  // twice the rate), and when its latest 429 ended.
  const recentAnswers = new BoundedMap<
    string,
    { succeeded: { start: number; end: number }[]; lastLimitedEnd: number }
  >(limits.tokens);
  const counts = { exchanges: 0, judged: 0, noAnswer: 0 };
  const undescribed = { count: 0, examples: [] as string[] };

  // Every token seen is redacted from everything kept from then on (and from the report again),
  // up to `redactedTokens` of them; past that, the redactor of token-shaped text still catches a
  // platform token. Only the first `tokens` keep their standing.
  const secrets = new Set<string>();
  let labels = 0;
  function known(secret: string) {
    let seen = tokens.get(secret);
    if (!seen) {
      seen = { label: `token ${++labels}`, acceptedBy: new Set() };
      if (tokens.size < limits.tokens) tokens.set(secret, seen);
      else dropped.tokens++;
      if (secrets.size < REDACTED_TOKENS && !secrets.has(secret)) {
        secrets.add(secret);
        tokenRedact.add(secret);
      }
    }
    return seen;
  }

  function tokenOf(header: string | undefined): { auth: AuthSeen; acceptedBy?: Set<string> } {
    const recorded = options.credentialsRecorded ?? true;
    const none = { recorded, token: undefined, acceptedBy: new Set<string>() };
    if (header === undefined) return { auth: { ...none, scheme: undefined } };
    const [scheme = "", ...rest] = header.trim().split(/\s+/);
    const secret = rest.join(" ");
    if (secret === "") return { auth: { ...none, scheme } };
    const seen = known(secret);
    return {
      auth: { recorded, scheme, token: seen.label, acceptedBy: new Set(seen.acceptedBy) },
      acceptedBy: seen.acceptedBy,
    };
  }

  function tally(rule: TrafficRule, operation: OperationModel, problem: string | null, evidence: Evidence) {
    const id = rule.perOperation ? `${rule.id}.${operation.operationId}` : rule.id;
    let t = tallies.get(id);
    if (!t) {
      t = { rule, operations: new Set(), judged: 0, failing: 0, problems: [], failed: [], sample: [] };
      tallies.set(id, t);
    }
    t.operations.add(operation.operationId);
    t.judged++;
    if (problem === null) {
      if (t.sample.length < 5) t.sample.push(evidence);
      return;
    }
    t.failing++;
    if (t.failing === 1) options.onFirstFailure?.(id, rule.severity, redact(problem));
    if (t.problems.length < limits.problems) t.problems.push(redact(problem));
    if (t.failed.length < limits.evidence) t.failed.push(evidence);
  }

  function emit<E extends keyof TrafficEvents>(on: E, event: TrafficEvents[E]) {
    for (const rule of TRAFFIC_RULES) {
      if (rule.on !== on || !rule.applies(event.operation)) continue;
      const verdict = (rule as TrafficRule<E>).judge(event);
      if (verdict !== undefined) tally(rule, event.operation, verdict, event.evidence);
    }
  }

  function offsetPage(base: AnswerEvent, list: OffsetList, query: URLSearchParams) {
    const offset = Number(query.get(list.offset.name) ?? list.offset.default ?? 0);
    const asked = query.get(list.limit.name);
    const limit = asked !== null ? Number(asked) : (list.limit.default as number | undefined);
    const page = readOffsetPage(list, base.answer.body, offset);
    if (!page || !Number.isInteger(offset) || offset < 0 || (limit !== undefined && !Number.isInteger(limit)))
      return; // the schema result says what is wrong with the page
    const rest = new URLSearchParams(query);
    rest.delete(list.offset.name);
    rest.sort();
    const key = `${base.auth.token}|${list.operation.operationId}|${base.answer.url.split("?")[0]}|${rest}`;
    const ids = page.items.map(identity);
    let walk = walks.get(key);
    const continues =
      walk !== undefined && offset > 0 && offset % walk.step === 0 && !walk.offsets.has(offset);
    const walkCount = continues ? walk?.count : undefined;
    if (!continues || !walk) {
      walk = {
        step: limit ?? Math.max(1, page.items.length),
        count: page.count,
        offsets: new Set(),
        seen: new Set(),
        startedAtZero: offset === 0,
      };
      walks.set(key, walk);
    }
    const repeated = continues && walk.seen ? ids.filter((id) => walk.seen?.has(id)) : [];
    walk.offsets.add(offset);
    for (const id of ids) walk.seen?.add(id);
    if (walk.seen && walk.seen.size > limits.itemsPerWalk) {
      dropped.items += walk.seen.size;
      walk.seen = null;
    }
    let visitedAtEnd: number | undefined;
    const needed = Math.ceil(walk.count / walk.step);
    if (walk.startedAtZero && walk.offsets.size >= Math.max(needed, 1)) {
      let whole = true;
      for (let i = 0; i < needed && whole; i++) whole = walk.offsets.has(i * walk.step);
      if (whole) {
        visitedAtEnd = walk.seen?.size;
        walks.delete(key);
      }
    }
    emit("offsetPage", {
      ...base,
      list,
      offset,
      limit,
      count: page.count,
      items: page.items.length,
      repeated,
      continues,
      walkCount,
      visitedAtEnd,
    });
  }

  function pagePage(base: AnswerEvent, list: PageList, query: URLSearchParams) {
    const body = base.answer.body;
    const items = fieldOf(body, list.pagination.itemsField);
    if (!Array.isArray(items)) return;
    const link = (field: string) => {
      const value = fieldOf(body, field);
      return typeof value === "string" ? value : null;
    };
    const count = fieldOf(body, list.pagination.countField);
    const asked = query.get(list.limit.name);
    emit("pagePage", {
      ...base,
      list,
      query,
      page: Number(query.get(list.page.name) ?? list.page.default ?? 1),
      limit: asked !== null ? Number(asked) : (list.limit.default as number | undefined),
      count: typeof count === "number" ? count : undefined,
      items: items.length,
      next: link(list.pagination.nextField),
      previous: link(list.pagination.previousField),
    });
  }

  function task(base: AnswerEvent) {
    const body = base.answer.body;
    const taskId = base.params[facts().poll.parameters.find((p) => p.in === "path")?.name ?? ""];
    const state = fieldOf(body, "state");
    if (!isRecord(body) || typeof state !== "string" || taskId === undefined) return;
    const seen = tasks.get(taskId);
    emit("task", {
      ...base,
      taskId,
      state,
      before: seen?.state,
      body,
      createdResourcesKey: seen?.createdResourcesKey,
    });
    tasks.set(taskId, { ...seen, state });
  }

  function started(operation: OperationModel, body: unknown) {
    const ids = fieldOf(body, "tasks");
    const key = operation.asyncTask?.createdResourcesKey;
    if (!Array.isArray(ids)) return;
    for (const id of ids) if (typeof id === "string") tasks.set(id, { createdResourcesKey: key });
  }

  // The platform handled each request at some moment between its start and its answer's end, as the
  // proxy saw them: only 2xx answers whose whole interval lies within one period ending now are
  // certain to have been counted by the platform in that period. A slow or loaded hop widens the
  // intervals and so can only hide a burst, never make one up.
  function recentOf(token: string, start: number, end: number, status: number): AnswerEvent["recent"] {
    const { periodSeconds, exceededStatus } = model.conventions.requestRate;
    const seen = recentAnswers.get(token) ?? { succeeded: [], lastLimitedEnd: Number.NEGATIVE_INFINITY };
    if (status >= 200 && status < 300) {
      seen.succeeded.push({ start, end });
      if (seen.succeeded.length > burstThreshold() + 1) seen.succeeded.shift();
    }
    if (status === exceededStatus) seen.lastLimitedEnd = Math.max(seen.lastLimitedEnd, end);
    recentAnswers.set(token, seen);
    const since = end - periodSeconds * 1000;
    return {
      succeeded: seen.succeeded.filter((r) => r.start >= since && r.end <= end).length,
      limited: seen.lastLimitedEnd >= since,
    };
  }

  function judge(exchange: ObservedExchange): void {
    counts.exchanges++;
    if (exchange.status === null) {
      counts.noAnswer++;
      return;
    }
    const [path = "", search = ""] = splitUrl(exchange.url);
    const match = matchOperation(model, exchange.method, path);
    if (!match) {
      undescribed.count++;
      const name = redact(`${exchange.method.toUpperCase()} ${path}`);
      if (undescribed.examples.length < limits.undescribed && !undescribed.examples.includes(name))
        undescribed.examples.push(name);
      return;
    }
    const { auth, acceptedBy } = tokenOf(exchange.requestHeaders.authorization);
    if (exchange.body === undefined) {
      dropped.bodies++;
      return;
    }
    counts.judged++;
    const { operation, params } = match;
    const text = redact(exchange.body);
    let body: unknown;
    if (exchange.body !== "")
      try {
        body = JSON.parse(exchange.body);
      } catch {
        body = undefined;
      }
    const contentType = exchange.responseHeaders["content-type"] ?? null;
    const answer: Answer = {
      method: exchange.method.toUpperCase(),
      template: operation.path,
      url: redact(exchange.url),
      status: exchange.status,
      headers: exchange.responseHeaders,
      text,
      body,
      contentType,
    };
    const evidence: Evidence = {
      method: answer.method,
      path: answer.url,
      status: exchange.status,
      excerpt: excerptOf(text),
      operationId: operation.operationId,
      contentType,
      at: exchange.at,
      durationMs: Math.round(exchange.durationMs),
    };
    const judged = judgeAnswer(answer, evidence) ?? {
      operationId: operation.operationId,
      evidence,
      must: [],
      should: [],
    };
    // What breaks HTTP itself comes first: the rest of the judgement stands on it.
    if (exchange.invalid?.length)
      judged.must.unshift(
        ...exchange.invalid.map(
          (p) => `${answer.method} ${evidence.path} → ${exchange.status}: ${redact(p)}`,
        ),
      );
    const base: AnswerEvent = {
      exchange,
      operation,
      params,
      answer,
      evidence,
      judged,
      auth,
      recent: recentOf(auth.token ?? "", exchange.at, exchange.at + exchange.durationMs, exchange.status),
    };
    emit("answer", base);
    const query = new URLSearchParams(search);
    const ok = exchange.status >= 200 && exchange.status < 300;
    if (exchange.status === 200 && operation.pagination?.style === "offset")
      offsetPage(base, offsetList(operation), query);
    if (exchange.status === 200 && operation.pagination?.style === "page")
      pagePage(base, pageList(operation), query);
    if (exchange.status === 200 && operation.operationId === facts().poll.operationId) task(base);
    if (ok && operation.asyncTask) started(operation, body);
    if (ok) acceptedBy?.add(keyFor(operation));
  }

  function results({ strict }: { strict: boolean }): ScenarioResult[] {
    const out: ScenarioResult[] = [];
    for (const rule of TRAFFIC_RULES) {
      const operations = model.operations.filter((o) => rule.applies(o));
      const groups = rule.perOperation
        ? operations.map((o) => ({ id: `${rule.id}.${o.operationId}`, operation: o }))
        : operations.length > 0
          ? [{ id: rule.id, operation: operations[0] as OperationModel }]
          : [];
      for (const { id, operation } of groups) {
        const t = tallies.get(id);
        const title = rule.title(operation);
        const common = {
          id,
          title,
          severity: rule.severity as Severity,
          operation: t ? [...t.operations].join(", ") : operation.operationId,
          ...(rule.perOperation ? { check: rule.id } : {}),
          durationMs: 0,
        };
        if (!t) {
          out.push({ ...common, status: "skipped", reason: "not seen in the traffic", evidence: [] });
          continue;
        }
        if (t.failing === 0) {
          out.push({ ...common, status: "passed", reason: null, evidence: t.sample });
          continue;
        }
        const more = t.failing > t.problems.length ? `\n… and ${t.failing - t.problems.length} more` : "";
        out.push({
          ...common,
          status: rule.severity === "must" || strict ? "failed" : "warned",
          reason: `${t.failing} of ${t.judged} exchanges break it:\n${t.problems.join("\n")}${more}`,
          evidence: t.failed,
        });
      }
    }
    return out;
  }

  const summary = (): TrafficSummary => ({
    ...counts,
    undescribed: { count: undescribed.count, examples: [...undescribed.examples] },
    dropped: { ...dropped },
    limits,
  });

  return {
    judge,
    summary,
    results,
    redact,
    label: (credential) => known(credential).label,
    report({ target, startedAt, options: reportOptions, strict }) {
      const scenarios = results({ strict });
      const report: Report = {
        target,
        startedAt: startedAt.toISOString(),
        durationMs: Date.now() - startedAt.getTime(),
        options: reportOptions,
        summary: summarize(scenarios),
        scenarios,
        createdResources: [],
        traffic: summary(),
      };
      // Once more with every token the traffic carried: one seen late is redacted from early evidence too.
      return redactDeep(report, redact);
    },
  };
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
