// The judge: exchanges, one at a time, judged by every rule of the registry (src/rules/) that
// applies to their operation: each answer against the spec, and the platform's rules across
// exchanges (walks of a list, a task's life, a 429's Retry-After, a token's standing). One judge
// for every producer: an active run's drivers and stories, `conformance observe` (live, through
// the proxy) and `conformance verify --har` (recorded) get the same results, severities and evidence.
//
// What it keeps is bounded (LIMITS): walks, tasks and tokens are forgotten least recently used
// first, and the report says how many were.

import { matchOperation, type OperationModel } from "@platform-api/spec";
import { decodeExchange, judgeAnswer, PROBLEM, pathOf } from "../http/answer.js";
import { cutText } from "../http/shown-headers.js";
import { RULES, resultIdOf } from "../rules/index.js";
import { facts } from "../rules/task-rules.js";
import type { AnswerEvent, AuthSeen, Rule, RuleEvents, WalkView } from "../rules/types.js";
import { BoundedMap } from "../shared/bounded-map.js";
import type { Evidence, Severity } from "../shared/context.js";
import type { ObservedExchange } from "../shared/exchange.js";
import { fieldOf, isRecord } from "../shared/json.js";
import { createGrowingRedactor, createUsageRedactor } from "../shared/redact.js";
import type { JudgeLimits, Report, ScenarioResult, TrafficSummary } from "../shared/results.js";
import { credentialValues, hideCredentials } from "../spec/credential-names.js";
import { identity } from "../spec/list-facts.js";
import { offsetList, readOffsetPage } from "../spec/offset.js";
import { keyFor } from "../spec/operations.js";
import { pageList } from "../spec/pages.js";
import { burstThreshold } from "../spec/rate.js";
import { specModel } from "../spec/spec.js";
import { buildReport } from "./build-report.js";

/** Distinct tokens redacted from what is kept (each a few dozen bytes; far more than any traffic holds). */
const REDACTED_TOKENS = 1024;

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

/** One result's tally: every exchange its rule judged, what failed, and what shows it. */
export interface Tally {
  rule: Rule;
  operations: Set<string>;
  judged: number;
  failing: number;
  problems: string[];
  failed: Evidence[];
  sample: Evidence[];
}

interface Walk {
  step: number;
  count: number | undefined;
  /** The first and last item of each page seen, by page index (0 is the first page). */
  pages: Map<number, { first: unknown; last: unknown }>;
  seen: Set<string> | null;
}

interface TaskSeen {
  state?: string;
  createdResourcesKey?: string;
}

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
  const usage = createUsageRedactor(options.env ?? {}, options.keyVariables ?? []);
  const tokens = new Map<string, { label: string; acceptedBy: Set<string> }>();
  // Each token's patterns built once, when it is first seen (a token per request stays linear).
  const tokenRedact = createGrowingRedactor();
  for (const secret of options.secrets ?? []) if (secret) tokenRedact.add(secret);
  // Credentials known by their names too (a client's password field): a recording and the report
  // both take this redactor.
  const redact = (text: string) => hideCredentials(usage(tokenRedact(text)));
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
  // up to REDACTED_TOKENS of them; past that, the redactor of token-shaped text still catches a
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

  /** A credential known by its name only (credentialValues): redacted from then on, never labelled. */
  function learn(value: string) {
    if (secrets.size < REDACTED_TOKENS && !secrets.has(value)) {
      secrets.add(value);
      tokenRedact.add(value);
    }
  }

  function tokenOf(
    header: string | undefined,
    role: AuthSeen["role"],
  ): { auth: AuthSeen; acceptedBy?: Set<string> } {
    const recorded = options.credentialsRecorded ?? true;
    const none = { recorded, token: undefined, acceptedBy: new Set<string>(), role: undefined };
    if (header === undefined) return { auth: { ...none, scheme: undefined } };
    const [scheme = "", ...rest] = header.trim().split(/\s+/);
    const secret = rest.join(" ");
    if (secret === "") return { auth: { ...none, scheme } };
    const seen = known(secret);
    role ??=
      secret === options.roles?.client
        ? "client"
        : secret === options.roles?.reseller
          ? "reseller"
          : undefined;
    return {
      auth: { recorded, scheme, token: seen.label, acceptedBy: new Set(seen.acceptedBy), role },
      acceptedBy: seen.acceptedBy,
    };
  }

  function tally(rule: Rule, operation: OperationModel, problem: string | null, event: AnswerEvent) {
    const id = resultIdOf(rule, operation.operationId);
    let t = tallies.get(id);
    if (!t) {
      t = { rule, operations: new Set(), judged: 0, failing: 0, problems: [], failed: [], sample: [] };
      tallies.set(id, t);
    }
    t.operations.add(operation.operationId);
    t.judged++;
    if (problem === null) {
      if (t.sample.length < 5) t.sample.push(event.evidence);
      return;
    }
    t.failing++;
    const by = event.exchange.by === undefined ? "" : ` (called by ${event.exchange.by})`;
    // Redacted whole, then cut: a rule's sentence quotes the URL, which may be megabytes long.
    const said = cutText(redact(`${problem}${by}`), PROBLEM);
    if (t.failing === 1) options.onFirstFailure?.(id, rule.severity, said);
    if (t.problems.length < limits.problems) t.problems.push(said);
    if (t.failed.length < limits.evidence) t.failed.push(event.evidence);
  }

  function emit<E extends keyof RuleEvents>(on: E, event: RuleEvents[E]) {
    for (const rule of RULES) {
      if (rule.on !== on || !rule.applies(event.operation)) continue;
      const verdict = (rule as unknown as Rule<E>).judge(event);
      if (verdict !== undefined) tally(rule, event.operation, verdict, event);
    }
  }

  /**
   * Where a page stands in its walk (`key`: the list, token, filters, ordering and limit), page
   * `index` of `step` items each. Re-reading a page of a walk starts it anew.
   */
  function walkOf(
    key: string,
    index: number,
    step: number,
    count: number | undefined,
    items: unknown[],
  ): WalkView {
    let walk = walks.get(key);
    const continues = walk !== undefined && walk.step === step && index > 0 && !walk.pages.has(index);
    const walkCount = continues ? walk?.count : undefined;
    if (!continues || !walk) {
      walk = { step, count, pages: new Map(), seen: new Set() };
      walks.set(key, walk);
    }
    const ids = items.map(identity);
    const repeated = continues && walk.seen ? ids.filter((id) => walk?.seen?.has(id)) : [];
    const before = walk.pages.get(index - 1)?.last;
    const after = walk.pages.get(index + 1)?.first;
    walk.pages.set(index, { first: items[0], last: items.at(-1) });
    if (walk.count === undefined) walk.count = count;
    for (const id of ids) walk.seen?.add(id);
    if (walk.seen && walk.seen.size > limits.itemsPerWalk) {
      dropped.items += walk.seen.size;
      walk.seen = null;
    }
    let visitedAtEnd: number | undefined;
    if (walk.count !== undefined && walk.pages.has(0)) {
      const needed = Math.ceil(walk.count / step);
      let whole = walk.pages.size >= needed;
      for (let i = 0; i < needed && whole; i++) whole = walk.pages.has(i);
      if (whole) {
        visitedAtEnd = walk.seen?.size;
        walks.delete(key);
      }
    }
    return { continues, walkCount, repeated, visitedAtEnd, before, after };
  }

  /** The walk a request belongs to: its list, token and query without the page's own position. */
  function walkKey(base: AnswerEvent, without: string): string {
    const rest = new URLSearchParams(base.query);
    rest.delete(without);
    rest.sort();
    return `${base.auth.token}|${base.operation.operationId}|${base.answer.url.split("?")[0]}|${rest}`;
  }

  /** The limit a request asked for, else the spec's default; undefined when neither is a number. */
  function limitOf(query: URLSearchParams, name: string, fallback: unknown) {
    const asked = query.get(name);
    const limit = asked !== null ? Number(asked) : typeof fallback === "number" ? fallback : undefined;
    return {
      limit: limit !== undefined && Number.isInteger(limit) ? limit : undefined,
      limitAsked: asked !== null,
    };
  }

  /**
   * Whether a limit the request asked for lies outside the spec's bounds: the server may clamp it
   * to anything in them (pagination.offset.limit-bounds judges that), so its page is no step of a walk.
   */
  const outside = (limit: number | undefined, { minimum, maximum }: { minimum?: number; maximum?: number }) =>
    limit !== undefined && (limit < (minimum ?? 1) || limit > (maximum ?? Number.POSITIVE_INFINITY));

  /**
   * Whether the request's paging holds a value whose effect the spec leaves open (fuzz says so on
   * its exchanges: a limit of the AI task list, whose bounds are x-unspecified, may be clamped to
   * a maximum the spec does not state): no page or walk rule judges such a page.
   */
  const openPaging = (exchange: ObservedExchange, names: string[]) =>
    names.some((name) => exchange.openParameters?.includes(name));

  function offsetPage(base: AnswerEvent) {
    const list = offsetList(base.operation);
    const offset = Number(base.query.get(list.offset.name) ?? list.offset.default ?? 0);
    const { limit, limitAsked } = limitOf(base.query, list.limit.name, list.limit.default);
    const page = readOffsetPage(list, base.answer.body, offset);
    // The schema result says what is wrong with the page.
    if (!page || !Number.isInteger(offset) || offset < 0 || (limitAsked && limit === undefined)) return;
    if (outside(limit, list.limit) || openPaging(base.exchange, [list.limit.name, list.offset.name])) return;
    const step = limit !== undefined && limit > 0 ? limit : Math.max(1, page.items.length);
    const key = walkKey(base, list.offset.name);
    // An offset off the walk's grid starts a walk of its own.
    const index = offset % step === 0 ? offset / step : 0;
    const walk =
      offset % step === 0
        ? walkOf(key, index, step, page.count, page.items)
        : walkOf(`${key}|${offset}`, 0, step, undefined, page.items);
    emit("offsetPage", {
      ...base,
      list,
      offset,
      limit,
      limitAsked,
      count: page.count,
      items: page.items.length,
      itemList: page.items,
      walk,
    });
  }

  function pagePage(base: AnswerEvent) {
    const list = pageList(base.operation);
    const body = base.answer.body;
    const items = fieldOf(body, list.pagination.itemsField);
    if (!Array.isArray(items)) return;
    const link = (field: string) => {
      const value = fieldOf(body, field);
      return typeof value === "string" ? value : null;
    };
    const sent = fieldOf(body, list.pagination.countField);
    const count = typeof sent === "number" && Number.isInteger(sent) ? sent : undefined;
    const page = Number(base.query.get(list.page.name) ?? list.page.default ?? 1);
    const { limit, limitAsked } = limitOf(base.query, list.limit.name, list.limit.default);
    if (!Number.isInteger(page) || page < 1 || outside(limit, list.limit)) return;
    if (openPaging(base.exchange, [list.limit.name, list.page.name])) return;
    const step = limit !== undefined && limit > 0 ? limit : Math.max(1, items.length);
    emit("pagePage", {
      ...base,
      list,
      page,
      limit,
      limitAsked,
      count,
      items: items.length,
      itemList: items,
      next: link(list.pagination.nextField),
      previous: link(list.pagination.previousField),
      walk: walkOf(walkKey(base, list.page.name), page - 1, step, count, items),
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
    const ids = fieldOf(body, operation.asyncTask?.tasksField ?? "tasks");
    const key = operation.asyncTask?.createdResourcesKey;
    if (!Array.isArray(ids)) return;
    for (const id of ids) if (typeof id === "string") tasks.set(id, { createdResourcesKey: key });
  }

  // The platform handled each request at some moment between its start and its answer's end, as the
  // producer saw them: only 2xx answers whose whole interval lies within one period ending now are
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
    // Before anything of the exchange is redacted: an answer may echo what the request carried.
    for (const value of credentialValues(exchange)) learn(value);
    if (exchange.status === null) {
      counts.noAnswer++;
      return;
    }
    const [path = "", search = ""] = splitUrl(exchange.url);
    const match = matchOperation(model, exchange.method, path);
    if (!match) {
      undescribed.count++;
      const name = pathOf(redact(`${exchange.method.toUpperCase()} ${path}`));
      if (undescribed.examples.length < limits.undescribed && !undescribed.examples.includes(name))
        undescribed.examples.push(name);
      return;
    }
    const { auth, acceptedBy } = tokenOf(exchange.requestHeaders.authorization, exchange.tokenRole);
    if (exchange.body === undefined) {
      dropped.bodies++;
      return;
    }
    counts.judged++;
    const { operation, params } = match;
    const answered = exchange as ObservedExchange & { status: number };
    const { answer, evidence } = decodeExchange(answered, operation.path, redact, operation.operationId);
    const refused = exchange.offSpec !== undefined && answered.status >= 400 && answered.status < 500;
    const judged = (refused ? undefined : judgeAnswer(answer, evidence)) ?? {
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
      query: new URLSearchParams(search),
      answer,
      evidence,
      judged,
      auth,
      recent: recentOf(auth.token ?? "", exchange.at, exchange.at + exchange.durationMs, exchange.status),
    };
    emit("answer", base);
    const ok = answered.status >= 200 && answered.status < 300;
    if (answered.status === 200 && operation.pagination?.style === "offset") offsetPage(base);
    if (answered.status === 200 && operation.pagination?.style === "page") pagePage(base);
    if (answered.status === 200 && operation.operationId === facts().poll.operationId) task(base);
    if (ok && operation.asyncTask) started(operation, answer.body);
    if (ok) acceptedBy?.add(keyFor(operation));
  }

  function results({ strict }: { strict: boolean }): ScenarioResult[] {
    const out: ScenarioResult[] = [];
    for (const { id, rule, operation } of plannedResults()) {
      const t = tallies.get(id);
      const common = {
        id,
        title: rule.title(operation),
        severity: rule.severity,
        operation: t ? [...t.operations].join(", ") : operation.operationId,
        ...(rule.perOperation ? { check: rule.id } : {}),
        durationMs: 0,
      };
      out.push({ ...common, ...verdictOf(rule, operation, t, strict) });
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
    tally: (id) => tallies.get(id),
    results,
    redact,
    label: (credential) => known(credential).label,
    report({ target, startedAt, options: reportOptions, strict }) {
      // Once more with every token the traffic carried: one seen late is redacted from early evidence too.
      return buildReport(
        { target, startedAt, options: reportOptions, scenarios: results({ strict }), traffic: summary() },
        redact,
      );
    },
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

/** A result's status, reason and evidence from its tally (none: nothing was judged). */
export function verdictOf(
  rule: Rule,
  operation: OperationModel,
  t: Tally | undefined,
  strict: boolean,
): Pick<ScenarioResult, "status" | "reason" | "evidence" | "failedOn"> {
  if (!t)
    return {
      status: "skipped",
      reason: rule.unjudged?.(operation) ?? "not seen in the traffic",
      evidence: [],
    };
  if (t.failing === 0) return { status: "passed", reason: null, evidence: t.sample };
  const more = t.failing > t.problems.length ? `\n… and ${t.failing - t.problems.length} more` : "";
  return {
    status: rule.severity === "must" || strict ? "failed" : "warned",
    reason: `${t.failing} of ${t.judged} exchanges break it:\n${t.problems.join("\n")}${more}`,
    evidence: t.failed,
    // Its evidence is what broke it, each exchange named in the reason in the same order.
    failedOn: t.failed.map((_, i) => i),
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
