// One fuzz run's sending and judging: every generated request goes out paced at --rate-limit
// (429s wait for their Retry-After; a 5xx to a GET or PUT is retried once, as the seed advises),
// every exchange goes to the run's one judge (every rule of src/rules/ on every operation it fits),
// and each request's last answer to fuzz's own checks (src/fuzz/checks.ts). What failed on a request
// comes back to the generator, which stops or shrinks on it; the first request to fail each result
// is its finding, with a reproducer.

import { type OperationModel, operationById } from "@platform-api/spec";
import { unmetNeed } from "../discovery/needs.js";
import { operationNeeds } from "../facts/operations.js";
import { specModel } from "../facts/spec.js";
import { CutAnswerError, createHttp, type Http, NoAnswerError } from "../http/http.js";
import { createJudge, type Judge, plannedResults } from "../judge/judge.js";
import type { ActivityHooks } from "../shared/activity.js";
import type { CreatedResource, Evidence, RunContext, Severity } from "../shared/context.js";
import type { Finding, FuzzRequest, Phase } from "../shared/finding.js";
import { createPacer } from "../shared/pacer.js";
import type { ScenarioResult } from "../shared/results.js";
import { type CheckTallies, createCheckTallies } from "./check-tally.js";
import { FUZZ_CHECKS, fuzzResultId } from "./checks.js";
import { type Classification, classify } from "./classify.js";
import { noteFinishedTask, noteStartedTasks } from "./created.js";
import { curlOf, httpRequestOf, requestLine } from "./request.js";
import { createRestorer, type Restored, type Restorer } from "./restore.js";
import { FuzzStopped } from "./stopped.js";

export type { Finding };

export interface Sent {
  status: number | null;
  /** Result ids this request failed (the registry's and fuzz's), with the problem each met. */
  failed: Map<string, string>;
  /** Why it was not sent (a write whose resource could not be read first; an operation given up on). */
  notSent?: string;
}

export interface Session {
  judge: Judge;
  send(request: FuzzRequest, phase: Phase): Promise<Sent>;
  /** Records (or, after shrinking, replaces) the finding of a result. */
  record(
    id: string,
    finding: Omit<Finding, "id" | "check" | "operationId" | "severity" | "seed" | "curl">,
    replace?: boolean,
  ): void;
  findings(): Finding[];
  created(): CreatedResource[];
  /** The last answer's JSON body (undefined: none, or not JSON). */
  lastBody(): unknown;
  /** A task seen in its terminal state: what it created joins the created resources. */
  noteFinished(taskId: string, task: unknown): void;
  requests(): number;
  /** Puts back what the run's PUTs replaced (unguarded: also after an interrupt); what became of each. */
  putBack(): Promise<Restored[]>;
  /** Why the run stopped early, once it has (the next send throws it). */
  stopped(): FuzzStopped | undefined;
  /** Answers larger than the HTTP layer reads: cut, their bodies never judged. */
  cutAnswers(): number;
  /** Sends each finding's request again (REPRODUCE_TRIES times) and keeps how many tries failed it. */
  confirm(): Promise<void>;
  /** The fuzz checks' results of the operations called, and the registry's that judged something. */
  results(strict: boolean, operations: string[]): { results: ScenarioResult[]; unjudged: number };
}

/**
 * Failed answers (5xx, or none after the HTTP layer's own retries) in a row after which an
 * operation's other requests are not sent: past it, more of the same tells nothing new, and against
 * a live API each costs seconds of retry pauses (a target answering 500 to everything kept default
 * fuzz going for over 300 s). Low enough to end that, high enough that shrinking still works on an
 * operation that fails only some requests (any answer that does not fail starts the count again).
 */
export const OPERATION_FAILURE_LIMIT = 8;
/**
 * Times a finding's request is sent again before it is reported, as Schemathesis replays a failure:
 * a defect fails every try; a one-off (the seed calls a 500 temporary) does not, and is flaky.
 */
export const REPRODUCE_TRIES = 2;
/** Operations given up on in a row, nothing answering in between, after which the run stops: the target is down. */
export const DOWN_OPERATIONS = 3;

export interface SessionOptions {
  seed: number;
  timeoutMs?: number;
  /** Aborted on an interrupt: the next request is not sent, the run stops (exit 130). */
  signal?: AbortSignal;
  /** Told what is not sent and why (once per operation or resource). */
  said?: (line: string) => void;
  /** Told what is sent and waited for (the run's progress and time account). */
  activity?: ActivityHooks;
}

export function createSession(run: RunContext, options: SessionOptions): Session {
  const judge = createJudge({ secrets: [run.target.apiKey, run.target.resellerApiKey] });
  const planned = plannedResults();
  const severityOf = new Map(planned.map((r) => [r.id, { check: r.rule.id, severity: r.rule.severity }]));
  const findings = new Map<string, Finding>();
  const keyVariable = (request: FuzzRequest) =>
    request.auth === "reseller" ? run.keySources.resellerApiKey : run.keySources.apiKey;
  function record(id: string, finding: FindingFacts, replace = false) {
    if (findings.has(id) && !replace) return;
    const curl = curlOf(finding.request, run.target.url, keyVariable(finding.request));
    findings.set(id, findingOf(id, finding, severityOf.get(id), options.seed, curl, judge.redact));
  }
  const exchanging: Exchanging = {
    judge,
    wire: createWire(run, options, judge),
    registryIds: planned.map((r) => r.id),
    tallies: createCheckTallies(judge.redact),
    created: [],
    counts: { requests: 0, cutAnswers: 0 },
    lastBody: undefined,
    unrecorded: (id) => !findings.has(id),
    record,
  };
  const restorer = createRestorer({
    send: (request) => exchange(exchanging, request, "stateful"),
    lastBody: () => exchanging.lastBody,
  });
  const guard = createGuard(options, restorer);
  const send = (request: FuzzRequest, phase: Phase, confirming = false) =>
    guard.send(request, confirming, () => exchange(exchanging, request, phase));

  return {
    judge,
    send,
    record,
    findings: () => [...findings.values()],
    created: () => [...exchanging.created],
    lastBody: () => exchanging.lastBody,
    noteFinished: (taskId, task) => noteFinishedTask(exchanging.created, taskId, task),
    requests: () => exchanging.counts.requests,
    putBack: () => restorer.putBack(),
    cutAnswers: () => exchanging.counts.cutAnswers,
    // A finding recorded while confirming another (the retry failed something new) is confirmed too.
    confirm: () =>
      confirmFindings(findings.values(), (finding) => send(finding.request, finding.phase, true)),
    stopped: () => guard.stopped(),
    results(strict, operations) {
      const registry = judge.results({ strict });
      // A rule whose verdict means nothing against this target (Prism keeps no state) is left out,
      // as an active run skips it.
      const needs = new Map(
        planned.map(({ id, rule, operation }) => [
          id,
          unmetNeed(rule.needs?.(operation) ?? operationNeeds(operation), run),
        ]),
      );
      const judged = registry.filter((r) => r.status !== "skipped" && needs.get(r.id) === undefined);
      const { own, unjudged } = exchanging.tallies.results(strict, operations);
      return { results: [...judged, ...own], unjudged: registry.length - judged.length + unjudged };
    },
  };
}

/** What a finding says of itself; the rest (its check, severity, seed, reproducer) the session adds. */
type FindingFacts = Omit<Finding, "id" | "check" | "operationId" | "severity" | "seed" | "curl">;

/** A result's finding: its check and severity the registry's, else the fuzz check's its id starts with. */
function findingOf(
  id: string,
  finding: FindingFacts,
  registry: { check: string; severity: Severity } | undefined,
  seed: number,
  curl: string,
  redact: (text: string) => string,
): Finding {
  const check = registry?.check ?? FUZZ_CHECKS.find((c) => id.startsWith(`${c.id}.`))?.id ?? id;
  const severity = registry?.severity ?? FUZZ_CHECKS.find((c) => c.id === check)?.severity ?? "must";
  return {
    id,
    check,
    operationId: finding.request.operationId,
    severity,
    seed,
    curl: redact(curl),
    ...finding,
    problem: redact(finding.problem),
  };
}

/** The HTTP layer of each phase (its `by` names the phase), with what one request's exchanges were. */
interface Wire {
  http(phase: Phase): Http;
  /** Starts a request: its exchanges are counted, and its last one kept, from here. */
  start(): void;
  /** How many exchanges the request took (2: a 5xx was retried once). */
  exchanges(): number;
  /** The evidence of the request's last exchange. */
  last(): Evidence | undefined;
}

/** Every phase paced by one pacer, every exchange told to the progress and judged by the run's judge. */
function createWire(run: RunContext, options: SessionOptions, judge: Judge): Wire {
  const pacer = createPacer(run.rateLimit);
  const https = new Map<Phase, Http>();
  let exchanges = 0;
  let last: Evidence | undefined;
  return {
    http(phase) {
      let http = https.get(phase);
      if (!http) {
        http = createHttp({
          baseUrl: run.target.url,
          apiKey: run.target.apiKey,
          resellerApiKey: run.target.resellerApiKey,
          pacer,
          timeScale: run.timeScale,
          by: `fuzz ${phase}`,
          ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
          ...(options.activity
            ? { sending: options.activity.sending, waiting: options.activity.waiting }
            : {}),
          exchanged: (exchange) => {
            options.activity?.exchanged(exchange.at, exchange.durationMs);
            exchanges++;
            judge.judge(exchange);
          },
          record: (evidence) => {
            last = evidence;
          },
        });
        https.set(phase, http);
      }
      return http;
    },
    start() {
      exchanges = 0;
      last = undefined;
    },
    exchanges: () => exchanges,
    last: () => last,
  };
}

/** The guards before a request goes out: an interrupt, a target given up on, a write that cannot be put back. */
interface Guard {
  send(request: FuzzRequest, confirming: boolean, exchange: () => Promise<Sent>): Promise<Sent>;
  stopped(): FuzzStopped | undefined;
}

function createGuard(options: SessionOptions, restorer: Restorer): Guard {
  let stop: FuzzStopped | undefined;
  const giveUp = createGiveUp(options.said);
  const refusedSaid = new Set<string>();
  return {
    async send(request, confirming, exchange) {
      if (!stop && options.signal?.aborted)
        stop = new FuzzStopped(
          `interrupted (${String(options.signal.reason ?? "SIGINT")})`,
          String(options.signal.reason ?? "SIGINT"),
        );
      if (stop) throw stop;
      // A finding of an operation given up on is still sent again, twice at most: bounded, and told apart.
      if (giveUp.has(request.operationId) && !confirming)
        return { status: null, failed: new Map(), notSent: "given up on: its answers kept failing" };
      const refused = await restorer.beforeWrite(request);
      if (refused !== undefined) {
        if (!refusedSaid.has(refused)) {
          refusedSaid.add(refused);
          options.said?.(`not sent: ${request.method} ${request.operationId}: ${refused}`);
        }
        return { status: null, failed: new Map(), notSent: refused };
      }
      const sent = await exchange();
      if (request.method === "PUT") restorer.wrote(request);
      stop = giveUp.answered(request.operationId, sent.status) ?? stop;
      return sent;
    },
    stopped: () => stop,
  };
}

/**
 * Operations given up on: one whose answers failed OPERATION_FAILURE_LIMIT times in a row gets no
 * more requests, and DOWN_OPERATIONS of them in a row, nothing answering in between, stop the run.
 */
function createGiveUp(said: ((line: string) => void) | undefined) {
  /** Per operation: failed answers in a row. */
  const failing = new Map<string, number>();
  const givenUp = new Set<string>();
  let downInARow = 0;
  return {
    has: (operationId: string) => givenUp.has(operationId),
    /** Counts an answer; a FuzzStopped when the target is down. */
    answered(operationId: string, status: number | null): FuzzStopped | undefined {
      if (status !== null && status < 500) {
        failing.set(operationId, 0);
        downInARow = 0;
        return undefined;
      }
      const inARow = (failing.get(operationId) ?? 0) + 1;
      failing.set(operationId, inARow);
      if (inARow < OPERATION_FAILURE_LIMIT) return undefined;
      givenUp.add(operationId);
      downInARow++;
      said?.(
        `given up on ${operationId}: ${inARow} answers in a row were ${status === null ? "none" : "5xx"}; its other requests are not sent`,
      );
      if (downInARow < DOWN_OPERATIONS) return undefined;
      return new FuzzStopped(
        `the target failed every request to ${DOWN_OPERATIONS} operations in a row (${OPERATION_FAILURE_LIMIT} each, the last ${status === null ? "with no answer" : `answered ${status}`}): stopped early`,
        undefined,
      );
    },
  };
}

/** What one exchange reads and adds to: the session's judge, tallies, created resources and findings. */
interface Exchanging {
  judge: Judge;
  wire: Wire;
  registryIds: string[];
  tallies: CheckTallies;
  created: CreatedResource[];
  counts: { requests: number; cutAnswers: number };
  /** The last answer's JSON body (undefined: none, or not JSON). */
  lastBody: unknown;
  /** True while a result has no finding yet: the first request to fail it is its finding. */
  unrecorded(id: string): boolean;
  record(id: string, finding: FindingFacts): void;
}

/** One request sent and judged, with no guard (the restorer's reads and put-backs use it directly). */
async function exchange(s: Exchanging, request: FuzzRequest, phase: Phase): Promise<Sent> {
  const operation = operationById(specModel(), request.operationId);
  const before = new Map(s.registryIds.map((id) => [id, s.judge.tally(id)?.failing ?? 0]));
  s.wire.start();
  s.counts.requests++;
  s.lastBody = undefined;
  const classification = classify(operation, request);
  const { status, text } = await answerOf(s, operation, request, classification, phase);
  const failed = new Map<string, string>();
  for (const id of s.registryIds) {
    const t = s.judge.tally(id);
    if ((t?.failing ?? 0) > (before.get(id) ?? 0)) failed.set(id, t?.problems.at(-1) ?? "see the result");
  }
  for (const check of FUZZ_CHECKS) {
    const problem = check.judge({
      operation,
      request,
      classification,
      status,
      text,
      sent: s.wire.exchanges(),
    });
    if (problem === undefined) continue;
    const id = fuzzResultId(check, operation.operationId);
    const said = problem === null ? null : `${requestLine(request)}: ${problem}`;
    s.tallies.tally(id, said, s.wire.last());
    if (said !== null) failed.set(id, s.judge.redact(said));
  }
  for (const [id, problem] of failed) if (s.unrecorded(id)) s.record(id, { phase, problem, status, request });
  return { status, failed };
}

/** The request's answer (its status null and its text why, when none came); the tasks it started noted. */
async function answerOf(
  s: Exchanging,
  operation: OperationModel,
  request: FuzzRequest,
  classification: Classification,
  phase: Phase,
): Promise<{ status: number | null; text: string }> {
  try {
    const offSpec = classification.forbidden.map((f) => f.problem).join("; ");
    const answer = await s.wire.http(phase).send({
      ...httpRequestOf(request),
      retries: 1,
      ...(offSpec === "" ? {} : { offSpec }),
      ...(classification.openNames.length === 0 ? {} : { openParameters: classification.openNames }),
    });
    s.lastBody = answer.body;
    noteStartedTasks(s.created, operation, request, answer.status, answer.body);
    return { status: answer.status, text: answer.text };
  } catch (error) {
    if (!(error instanceof NoAnswerError)) throw error;
    // An answer too large to read came all the same: its status is the target's, not "none".
    if (!(error instanceof CutAnswerError)) return { status: null, text: error.message };
    s.counts.cutAnswers++;
    return { status: error.status, text: error.message };
  }
}

/** Sends each finding's request again (REPRODUCE_TRIES times) and keeps how many tries failed it. */
async function confirmFindings(
  findings: Iterable<Finding>,
  sendAgain: (finding: Finding) => Promise<Sent>,
): Promise<void> {
  for (const finding of findings) {
    if (finding.tries) continue;
    let failedTries = 1;
    let tries = 1;
    for (let i = 0; i < REPRODUCE_TRIES; i++) {
      const sent = await sendAgain(finding);
      if (sent.notSent !== undefined) break;
      tries++;
      if (sent.failed.has(finding.id)) failedTries++;
    }
    finding.tries = { failed: failedTries, of: tries };
  }
}
