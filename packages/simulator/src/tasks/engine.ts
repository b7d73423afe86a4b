// The task engine: asynchronous tasks that move NEW → RUNNING → FINISHED (or ERROR) as the
// simulator's clock passes, so states only ever move forward. A task's outcome is decided when it
// is created and applied when it ends. What it keeps is bounded and its costs stay flat: due
// transitions come off a timeline (a heap, not a scan), and finished tasks expire after the
// retention or beyond LIMITS.finishedTasks, oldest first.
//
// The state names are the spec's (the generated TaskState type, so a renamed state fails
// compilation, and checkTaskStates compares them with the served description's x-task-polling).

import type { TaskPolling } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import { type Clock, withoutOffset } from "../clock.js";
import { notFound } from "../errors.js";
import { LIMITS } from "../limits.js";
import type { Random } from "../random.js";
import type { TaskEntry } from "../world/types.js";
import type { TaskDuration } from "./durations.js";
import { MinHeap } from "./min-heap.js";

export type TaskState = components["schemas"]["TaskState"];
export type CreatedResources = NonNullable<components["schemas"]["Task"]["created_resources"]>;

/** What the engine does with each state of the spec's Task. */
export const TASK_STATES = {
  queued: "NEW",
  running: "RUNNING",
  finished: "FINISHED",
  failed: "ERROR",
} as const satisfies Record<string, TaskState>;

/** Stops the start when the served description's task states are not the ones the engine moves through. */
export function checkTaskStates(polling: TaskPolling): void {
  const used: readonly string[] = Object.values(TASK_STATES);
  const terminal: readonly string[] = [TASK_STATES.finished, TASK_STATES.failed];
  const same = (a: readonly string[], b: readonly string[]) =>
    a.length === b.length && a.every((s) => b.includes(s));
  if (!same(polling.states, used) || !same(polling.terminalStates, terminal))
    throw new Error(
      `The simulator's tasks move through ${used.join(", ")} and end in ${terminal.join(" or ")}; the spec's task states are ${polling.states.join(", ")} with terminal states ${polling.terminalStates.join(", ")}.`,
    );
}

/** How a task ends: `finish` applies what the task creates and returns its created_resources. */
export type Outcome = { kind: "finish"; finish: () => CreatedResources } | { kind: "error"; error: string };

export interface TaskEngineOptions {
  clock: Clock;
  random: Random;
  /** Multiplies every task duration (0.01 turns 5-15 s into 50-150 ms). */
  timeScale: number;
  /** The typical duration of a task type, in seconds. */
  durationOf: (taskType: string) => TaskDuration;
  /** How long a FINISHED or ERROR task created through the API stays readable, in clock ms. */
  retentionMs: number;
}

interface TaskInFlight {
  entry: TaskEntry;
  createdMs: number;
  durationMs: number;
  outcome: Outcome;
}

/** A transition on the timeline: the task starts RUNNING, or reaches its end. */
interface Transition {
  atMs: number;
  /** creation order, so transitions due at the same time apply in a stable order */
  seq: number;
  kind: "run" | "end";
  task: TaskInFlight;
}

/** Share of a task's duration spent queued (NEW) before it runs: the simulator's choice. */
const QUEUED_SHARE = 0.2;

export class TaskEngine {
  private readonly tasks = new Map<string, TaskEntry>();
  /** Each client's tasks in creation order (seeded ones first). */
  private readonly byClient = new Map<number, Map<string, TaskEntry>>();
  private readonly timeline = new MinHeap<Transition>(
    (a, b) => a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq),
  );
  private seq = 0;
  /** Tasks created through the API that reached a terminal state, oldest end first. */
  private readonly finished: { id: string; atMs: number }[] = [];
  private finishedHead = 0;
  /** Ids of the tasks created through the API and still kept (the admin surface lists them). */
  private readonly created = new Set<string>();

  constructor(private readonly options: TaskEngineOptions) {}

  /** A task of the starting world: kept as it is, never moved by the clock. */
  add(entry: TaskEntry): void {
    const id = String(entry.record.id);
    this.tasks.set(id, entry);
    let own = this.byClient.get(entry.client_id);
    if (!own) {
      own = new Map();
      this.byClient.set(entry.client_id, own);
    }
    own.set(id, entry);
  }

  /** Starts a task of `taskType`, NEW now, ending as `outcome` says after its drawn duration. */
  start(place: Omit<TaskEntry, "record">, taskType: string, outcome: Outcome): TaskEntry {
    const createdMs = this.options.clock.now();
    const typical = this.options.durationOf(taskType);
    const seconds = typical.min + this.options.random.next() * (typical.max - typical.min);
    const entry: TaskEntry = {
      ...place,
      record: {
        id: this.options.random.uuid(),
        task_type: taskType,
        state: TASK_STATES.queued,
        error: null,
        created_on: withoutOffset(createdMs),
        finished_on: null,
        created_resources: null,
      },
    };
    this.add(entry);
    const task: TaskInFlight = {
      entry,
      createdMs,
      durationMs: seconds * 1000 * this.options.timeScale,
      outcome,
    };
    const seq = this.seq++;
    this.timeline.push({ atMs: createdMs + task.durationMs * QUEUED_SHARE, seq, kind: "run", task });
    this.timeline.push({ atMs: createdMs + task.durationMs, seq, kind: "end", task });
    this.created.add(String(entry.record.id));
    return entry;
  }

  /** Brings every task up to the clock and forgets expired ones; called before state is read. */
  settle(): void {
    const now = this.options.clock.now();
    for (let next = this.timeline.peek(); next && next.atMs <= now; next = this.timeline.peek()) {
      this.timeline.pop();
      if (next.kind === "run") next.task.entry.record.state = TASK_STATES.running;
      else this.end(next.task);
    }
    this.expire(now);
  }

  task(clientId: number, taskId: string): TaskEntry {
    const task = this.tasks.get(taskId);
    if (!task || task.client_id !== clientId) throw notFound(`Task ${taskId}`);
    return task;
  }

  /** The client's tasks still kept, in creation order. */
  tasksOf(clientId: number): TaskEntry[] {
    return [...(this.byClient.get(clientId)?.values() ?? [])];
  }

  /** Tasks created through the API and still kept. */
  createdTasks(): TaskEntry[] {
    return [...this.created].map((id) => this.tasks.get(id)).filter((t): t is TaskEntry => Boolean(t));
  }

  private end(task: TaskInFlight): void {
    const record = task.entry.record;
    const endMs = task.createdMs + task.durationMs;
    record.finished_on = withoutOffset(endMs);
    if (task.outcome.kind === "finish") {
      record.created_resources = task.outcome.finish();
      record.state = TASK_STATES.finished;
    } else {
      record.state = TASK_STATES.failed;
      record.error = task.outcome.error;
      record.created_resources = null;
    }
    this.finished.push({ id: String(record.id), atMs: endMs });
  }

  /** Forgets finished tasks past their retention, and the oldest beyond LIMITS.finishedTasks. */
  private expire(now: number): void {
    const kept = () => this.finished.length - this.finishedHead;
    for (
      let head = this.finished[this.finishedHead];
      head && (head.atMs + this.options.retentionMs <= now || kept() > LIMITS.finishedTasks);
      head = this.finished[this.finishedHead]
    ) {
      this.finishedHead += 1;
      const entry = this.tasks.get(head.id);
      this.tasks.delete(head.id);
      if (entry) this.byClient.get(entry.client_id)?.delete(head.id);
      this.created.delete(head.id);
    }
    // Drop the consumed front now and then, so the queue's array does not grow either.
    if (this.finishedHead > 1024 && this.finishedHead * 2 > this.finished.length) {
      this.finished.splice(0, this.finishedHead);
      this.finishedHead = 0;
    }
  }
}
