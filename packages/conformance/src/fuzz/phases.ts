// The three phases, each over the planned operations (src/fuzz/plan.ts): coverage (every case of
// src/fuzz/generate/coverage.ts, once), fuzz (fast-check's requests, shrunk to the smallest that
// fails) and stateful (a volume created and its task followed; one beyond any quota). All bounded:
// coverage by the spec's size, fuzz by --max-examples and SHRINK_BUDGET per operation, stateful
// by the task polling's deadline.

import { type OperationModel, operationById, taskPollingOf } from "@platform-api/spec";
import fc from "fast-check";
import { specModel } from "../facts/spec.js";
import { sleep } from "../http/http.js";
import type { RunContext } from "../shared/context.js";
import type { FuzzRequest, Phase } from "../shared/finding.js";
import { fieldOf, isRecord } from "../shared/json.js";
import { requestArbitrary } from "./generate/arbitraries.js";
import { coverageCases } from "./generate/coverage.js";
import type { Planned } from "./plan.js";
import { newRequest } from "./request.js";
import type { Session } from "./session.js";

/** Requests one shrinking may send: past it, the smallest failing request found so far is kept. */
export const SHRINK_BUDGET = 40;

export interface PhaseContext {
  run: RunContext;
  session: Session;
  planned: Planned[];
  seed: number;
  maxExamples: number;
  uuid: () => string;
  /** Told what each phase did, in a line. */
  said: (line: string) => void;
}

const called = (planned: Planned[]) =>
  planned.filter((p): p is Planned & { base: FuzzRequest } => p.base !== undefined);

export async function coveragePhase(ctx: PhaseContext): Promise<void> {
  let sent = 0;
  for (const { operation, base } of called(ctx.planned))
    for (const request of coverageCases(operation, base, ctx.uuid)) {
      await ctx.session.send(request, "coverage");
      sent++;
    }
  ctx.said(`coverage: ${sent} requests`);
}

/**
 * Per operation, fast-check's requests until one fails a result not yet found; that one is
 * shrunk, recorded, and generation goes on (a fresh seed derived from the run's) for what is left of
 * --max-examples, so one defect does not hide the next.
 */
export async function fuzzPhase(ctx: PhaseContext): Promise<void> {
  let sent = 0;
  for (const [index, { operation, base }] of called(ctx.planned).entries()) {
    // Nothing to vary (no query, no body): coverage has sent its one request.
    if (!operation.requestBody && !operation.parameters.some((p) => p.in === "query")) continue;
    const arbitrary = requestArbitrary(operation, base);
    let left = ctx.maxExamples;
    for (let round = 0; left > 0 && round < 10; round++) {
      const known = new Set(ctx.session.findings().map((f) => f.id));
      let budget = Number.POSITIVE_INFINITY;
      let examples = 0;
      const smallest = new Map<string, { request: FuzzRequest; problem: string; status: number | null }>();
      const details = await fc.check(
        fc.asyncProperty(arbitrary, async (request) => {
          // A stopped run sends nothing more; fast-check would take the session's throw for a failure and shrink it.
          if (budget <= 0 || ctx.session.stopped()) return true;
          if (Number.isFinite(budget)) budget--;
          else examples++;
          const { status, failed } = await ctx.session.send(request, "fuzz");
          sent++;
          const fresh = [...failed].filter(([id]) => !known.has(id));
          if (fresh.length === 0) return true;
          for (const [id, problem] of fresh) smallest.set(id, { request, problem, status });
          if (!Number.isFinite(budget)) budget = SHRINK_BUDGET;
          return false;
        }),
        { seed: derivedSeed(ctx.seed, index, round), numRuns: left },
      );
      for (const [id, found] of smallest) ctx.session.record(id, { phase: "fuzz", ...found }, true);
      const stop = ctx.session.stopped();
      if (stop) throw stop;
      left -= examples;
      if (!details.failed) break;
    }
  }
  ctx.said(
    `fuzz: ${sent} requests (at most ${ctx.maxExamples} examples per operation, shrinking included beyond)`,
  );
}

/** The seed of one operation's round: the run's seed, the operation's place and the round, mixed. */
export const derivedSeed = (seed: number, index: number, round: number) =>
  (Math.imul(seed ^ 0x9e3779b9, 31) + index * 1_000_003 + round * 7919) | 0;

/**
 * Writes only: each operation that starts a task is called with the spec's example, and its task
 * followed to its end at the interval the spec gives (× the time scale) and read again; the task
 * list is read as the main run reads it. The same again with a size no quota holds, whose task the
 * task rules judge (an ERROR naming the quota). Every task any phase started is then followed too,
 * so the report lists what the run created.
 */
export async function statefulPhase(ctx: PhaseContext): Promise<void> {
  let sent = 0;
  const send = async (request: FuzzRequest) => {
    sent++;
    return ctx.session.send(request, "stateful");
  };
  const polling = taskPollingOf(specModel());
  const poll = operationById(specModel(), polling.operationId);
  const starters = called(ctx.planned).filter(({ operation }) => operation.asyncTask);
  for (const { operation, base } of starters) {
    await send(base);
    const size = sizeField(operation, base.body);
    if (size !== undefined) await send({ ...base, body: { ...(base.body as object), [size]: 2 ** 31 - 1 } });
  }
  const list = specModel().operations.find(
    (o) => o.method === "get" && o.path === poll.path.replace(/\/\{[^}]+\}$/, ""),
  );
  if (list) await send(newRequest(list, {}, []));
  await followTasks(ctx, poll, send);
  if (list) await send(newRequest(list, {}, []));
  ctx.said(`stateful: ${sent} requests`);
}

/** The body's integer field named like a size (the example's `size`), if it has one. */
function sizeField(operation: OperationModel, body: unknown): string | undefined {
  if (!isRecord(body) || !operation.asyncTask) return undefined;
  return Object.keys(body).find((k) => k === "size" && typeof body[k] === "number");
}

async function followTasks(
  ctx: PhaseContext,
  poll: OperationModel,
  send: (request: FuzzRequest) => Promise<{ status: number | null }>,
): Promise<void> {
  const polling = taskPollingOf(specModel());
  const parameter = poll.parameters.find((p) => p.in === "path")?.name ?? "task_id";
  // The shortest interval the spec advises for the tasks the run starts; none advised: a second.
  const types = new Set(ctx.planned.map((p) => p.operation.asyncTask?.taskType).filter(Boolean));
  const advised = polling.intervals.filter((i) => types.has(i.taskType)).map((i) => i.pollIntervalSeconds);
  const intervalMs = (advised.length > 0 ? Math.min(...advised) : 1) * 1000 * ctx.run.timeScale;
  // Twice the longest typical duration of those tasks (a minute when the spec gives none).
  const typical = polling.intervals
    .filter((i) => types.has(i.taskType))
    .map((i) => i.typicalDurationSeconds.max);
  const deadlineMs = (typical.length > 0 ? Math.max(...typical) : 60) * 2 * 1000 * ctx.run.timeScale;
  const open = new Set(
    ctx.session
      .created()
      .filter((r) => r.type === "task")
      .map((r) => r.id),
  );
  const started = performance.now();
  const ended: string[] = [];
  // Bounded in time for a live API; at least MIN_SWEEPS looks at each task whatever the machine's
  // speed (a loaded one may spend the embedded simulator's whole scaled deadline on one sweep).
  for (
    let sweep = 0;
    open.size > 0 && (sweep < MIN_SWEEPS || performance.now() - started < deadlineMs);
    sweep++
  ) {
    for (const id of [...open]) {
      const request = newRequest(poll, { [parameter]: id }, []);
      const { status } = await send(request);
      if (status !== 200) {
        open.delete(id);
        continue;
      }
      const state = ctx.session.lastBody();
      if (polling.terminalStates.includes(String(fieldOf(state, "state")))) {
        ctx.session.noteFinished(id, state);
        open.delete(id);
        ended.push(id);
      }
    }
    if (open.size > 0) await sleep(intervalMs);
  }
  // Each ended task read once more: what it created, and that its terminal state holds.
  for (const id of ended) await send(newRequest(poll, { [parameter]: id }, []));
}

/** The fewest times each started task is read before the deadline may end the following. */
const MIN_SWEEPS = 5;

export type { Phase };
