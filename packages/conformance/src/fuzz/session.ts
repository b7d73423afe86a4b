// One fuzz run's sending and judging: every generated request goes out paced at --rate-limit
// (429s wait for their Retry-After; a 5xx to a GET or PUT is retried once, as the seed advises),
// every exchange goes to the run's one judge (every rule of src/rules/ on every operation it fits),
// and each request's last answer to fuzz's own checks (src/fuzz/checks.ts). What failed on a request
// comes back to the generator, which stops or shrinks on it; the first request to fail each result
// is its finding, with a reproducer.

import { operationById } from "@platform-api/spec";
import { CutAnswerError, createHttp, type Http, NoAnswerError } from "../http/http.js";
import { createJudge, type Judge, plannedResults } from "../judge/judge.js";
import type { ActivityHooks } from "../shared/activity.js";
import type { CreatedResource, Evidence, RunContext } from "../shared/context.js";
import type { Finding, FuzzRequest, Phase } from "../shared/finding.js";
import { fieldOf } from "../shared/json.js";
import { createPacer } from "../shared/pacer.js";
import type { ScenarioResult } from "../shared/results.js";
import { operationNeeds } from "../spec/operations.js";
import { specModel } from "../spec/spec.js";
import { unmetNeed } from "../target/needs.js";
import { FUZZ_CHECKS, fuzzResultId } from "./checks.js";
import { classify } from "./classify.js";
import { curlOf, httpRequestOf, requestLine } from "./request.js";
import { createRestorer, type Restored } from "./restore.js";
import { FuzzStopped } from "./stopped.js";

export type { Finding };

export interface Sent {
  status: number | null;
  /** Result ids this request failed (the registry's and fuzz's), with the problem each met. */
  failed: Map<string, string>;
  /** Why it was not sent (a write whose resource could not be read first; an operation given up on). */
  notSent?: string;
}

interface CheckTally {
  judged: number;
  failing: number;
  problems: string[];
  failed: Evidence[];
  sample: Evidence[];
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

const PROBLEM_LIMIT = 10;
const EVIDENCE_LIMIT = 20;

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
  const registryIds = planned.map((r) => r.id);
  const severityOf = new Map(planned.map((r) => [r.id, { check: r.rule.id, severity: r.rule.severity }]));
  const pacer = createPacer(run.rateLimit);
  const tallies = new Map<string, CheckTally>();
  const findings = new Map<string, Finding>();
  const created: CreatedResource[] = [];
  let count = 0;
  let lastBody: unknown;
  let last: Evidence | undefined;
  let exchanges = 0;
  const https = new Map<Phase, Http>();
  const httpOf = (phase: Phase) => {
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
        ...(options.activity ? { sending: options.activity.sending, waiting: options.activity.waiting } : {}),
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
  };
  const keyVariable = (request: FuzzRequest) =>
    request.auth === "reseller" ? run.keySources.resellerApiKey : run.keySources.apiKey;

  function tally(id: string, problem: string | null, evidence: Evidence | undefined) {
    let t = tallies.get(id);
    if (!t) {
      t = { judged: 0, failing: 0, problems: [], failed: [], sample: [] };
      tallies.set(id, t);
    }
    t.judged++;
    if (problem === null) {
      if (evidence && t.sample.length < 5) t.sample.push(evidence);
      return;
    }
    t.failing++;
    if (t.problems.length < PROBLEM_LIMIT) t.problems.push(judge.redact(problem));
    if (evidence && t.failed.length < EVIDENCE_LIMIT) t.failed.push(evidence);
  }

  const restorer = createRestorer({
    send: (request) => exchange(request, "stateful"),
    lastBody: () => lastBody,
  });
  let stop: FuzzStopped | undefined;
  let cutAnswers = 0;
  /** Per operation: failed answers in a row; given up on once it reaches OPERATION_FAILURE_LIMIT. */
  const failing = new Map<string, number>();
  const givenUp = new Set<string>();
  let downInARow = 0;
  const refusedSaid = new Set<string>();

  /** The guards before a request goes out: an interrupt, a target given up on, a write that cannot be put back. */
  async function send(request: FuzzRequest, phase: Phase, confirming = false): Promise<Sent> {
    if (!stop && options.signal?.aborted)
      stop = new FuzzStopped(
        `interrupted (${String(options.signal.reason ?? "SIGINT")})`,
        String(options.signal.reason ?? "SIGINT"),
      );
    if (stop) throw stop;
    // A finding of an operation given up on is still sent again, twice at most: bounded, and told apart.
    if (givenUp.has(request.operationId) && !confirming)
      return { status: null, failed: new Map(), notSent: "given up on: its answers kept failing" };
    const refused = await restorer.beforeWrite(request);
    if (refused !== undefined) {
      if (!refusedSaid.has(refused)) {
        refusedSaid.add(refused);
        options.said?.(`not sent: ${request.method} ${request.operationId}: ${refused}`);
      }
      return { status: null, failed: new Map(), notSent: refused };
    }
    const sent = await exchange(request, phase);
    if (request.method === "PUT") restorer.wrote(request);
    if (sent.status === null || sent.status >= 500) {
      const inARow = (failing.get(request.operationId) ?? 0) + 1;
      failing.set(request.operationId, inARow);
      if (inARow >= OPERATION_FAILURE_LIMIT) {
        givenUp.add(request.operationId);
        downInARow++;
        options.said?.(
          `given up on ${request.operationId}: ${inARow} answers in a row were ${sent.status === null ? "none" : "5xx"}; its other requests are not sent`,
        );
        if (downInARow >= DOWN_OPERATIONS)
          stop = new FuzzStopped(
            `the target failed every request to ${DOWN_OPERATIONS} operations in a row (${OPERATION_FAILURE_LIMIT} each, the last ${sent.status === null ? "with no answer" : `answered ${sent.status}`}): stopped early`,
            undefined,
          );
      }
    } else {
      failing.set(request.operationId, 0);
      downInARow = 0;
    }
    return sent;
  }

  /** One request sent and judged, with no guard (the restorer's reads and put-backs use it directly). */
  async function exchange(request: FuzzRequest, phase: Phase): Promise<Sent> {
    const operation = operationById(specModel(), request.operationId);
    const before = new Map(registryIds.map((id) => [id, judge.tally(id)?.failing ?? 0]));
    exchanges = 0;
    last = undefined;
    count++;
    let status: number | null = null;
    let text = "";
    lastBody = undefined;
    const classification = classify(operation, request);
    try {
      const offSpec = classification.forbidden.map((f) => f.problem).join("; ");
      const answer = await httpOf(phase).send({
        ...httpRequestOf(request),
        retries: 1,
        ...(offSpec === "" ? {} : { offSpec }),
        ...(classification.openNames.length === 0 ? {} : { openParameters: classification.openNames }),
      });
      status = answer.status;
      text = answer.text;
      lastBody = answer.body;
      if (status >= 200 && status < 300 && operation.asyncTask) {
        const tasks = fieldOf(answer.body, operation.asyncTask.tasksField);
        for (const id of Array.isArray(tasks) ? tasks : [])
          if (typeof id === "string" && !created.some((r) => r.type === "task" && r.id === id))
            created.push({
              type: "task",
              id,
              ...(request.params.project_id ? { project_id: Number(request.params.project_id) } : {}),
              ...(request.params.region_id ? { region_id: Number(request.params.region_id) } : {}),
            });
      }
    } catch (error) {
      if (!(error instanceof NoAnswerError)) throw error;
      text = error.message;
      // An answer too large to read came all the same: its status is the target's, not "none".
      if (error instanceof CutAnswerError) {
        status = error.status;
        cutAnswers++;
      }
    }
    const failed = new Map<string, string>();
    for (const id of registryIds) {
      const t = judge.tally(id);
      if ((t?.failing ?? 0) > (before.get(id) ?? 0)) failed.set(id, t?.problems.at(-1) ?? "see the result");
    }
    for (const check of FUZZ_CHECKS) {
      const problem = check.judge({ operation, request, classification, status, text, sent: exchanges });
      if (problem === undefined) continue;
      const id = fuzzResultId(check, operation.operationId);
      const said = problem === null ? null : `${requestLine(request)}: ${problem}`;
      tally(id, said, last);
      if (said !== null) failed.set(id, judge.redact(said));
    }
    for (const [id, problem] of failed)
      if (!findings.has(id)) record(id, { phase, problem, status, request });
    return { status, failed };
  }

  function record(
    id: string,
    finding: Omit<Finding, "id" | "check" | "operationId" | "severity" | "seed" | "curl">,
    replace = false,
  ) {
    if (findings.has(id) && !replace) return;
    const registry = severityOf.get(id);
    const check = registry?.check ?? FUZZ_CHECKS.find((c) => id.startsWith(`${c.id}.`))?.id ?? id;
    const severity = registry?.severity ?? FUZZ_CHECKS.find((c) => c.id === check)?.severity ?? "must";
    findings.set(id, {
      id,
      check,
      operationId: finding.request.operationId,
      severity,
      seed: options.seed,
      curl: judge.redact(curlOf(finding.request, run.target.url, keyVariable(finding.request))),
      ...finding,
      problem: judge.redact(finding.problem),
    });
  }

  function results(strict: boolean, operations: string[]) {
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
    const own: ScenarioResult[] = [];
    let unjudged = registry.length - judged.length;
    for (const check of FUZZ_CHECKS)
      for (const operationId of operations) {
        const id = fuzzResultId(check, operationId);
        const t = tallies.get(id);
        const common = {
          id,
          title: `${operationId}: ${check.judges}`,
          severity: check.severity,
          operation: operationId,
          check: check.id,
          durationMs: 0,
        };
        if (!t) {
          unjudged++;
          continue;
        }
        if (t.failing === 0) {
          own.push({ ...common, status: "passed", reason: null, evidence: t.sample });
          continue;
        }
        const more = t.failing > t.problems.length ? `\n… and ${t.failing - t.problems.length} more` : "";
        own.push({
          ...common,
          status: check.severity === "must" || strict ? "failed" : "warned",
          reason: `${t.failing} of ${t.judged} requests break it:\n${t.problems.join("\n")}${more}`,
          evidence: t.failed,
        });
      }
    return { results: [...judged, ...own], unjudged };
  }

  return {
    judge,
    send,
    record,
    findings: () => [...findings.values()],
    created: () => [...created],
    lastBody: () => lastBody,
    noteFinished(taskId, task) {
      const resources = fieldOf(task, "created_resources");
      if (typeof resources !== "object" || resources === null) return;
      const place = created.find((r) => r.id === taskId);
      for (const [key, ids] of Object.entries(resources))
        for (const id of Array.isArray(ids) ? ids : [])
          if ((typeof id === "string" || typeof id === "number") && !created.some((r) => r.id === String(id)))
            created.push({
              type: key.replace(/s$/, ""),
              id: String(id),
              task_id: taskId,
              ...(place?.project_id === undefined ? {} : { project_id: place.project_id }),
              ...(place?.region_id === undefined ? {} : { region_id: place.region_id }),
            });
    },
    requests: () => count,
    putBack: () => restorer.putBack(),
    cutAnswers: () => cutAnswers,
    async confirm() {
      // A finding recorded while confirming another (the retry failed something new) is confirmed too.
      for (const finding of findings.values()) {
        if (finding.tries) continue;
        let failedTries = 1;
        let tries = 1;
        for (let i = 0; i < REPRODUCE_TRIES; i++) {
          const sent = await send(finding.request, finding.phase, true);
          if (sent.notSent !== undefined) break;
          tries++;
          if (sent.failed.has(finding.id)) failedTries++;
        }
        finding.tries = { failed: failedTries, of: tries };
      }
    },
    stopped: () => stop,
    results,
  };
}
