// The task engine: asynchronous tasks that move NEW → RUNNING → FINISHED (or ERROR) as the
// simulator's clock passes, so states only ever move forward. A task's outcome is decided when it
// is created and applied when it ends. What it keeps is bounded and its costs stay flat: due
// transitions come off a timeline (a heap, not a scan), and finished tasks expire after the
// retention or beyond LIMITS.finishedTasks, oldest first.
//
// The state names and their roles are the served description's (taskStatesOf: the Task schema's
// state enum and x-task-polling's terminal and success states).

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

/**
 * The role of each of the spec's task states in the engine: the two states a task passes through
 * before it ends (in the order the spec's enum lists them), the terminal state of success
 * (x-task-polling's successState) and the terminal state of failure.
 */
export interface TaskStates {
  readonly queued: TaskState;
  readonly running: TaskState;
  readonly finished: TaskState;
  readonly failed: TaskState;
}

/** The task states of the served description, by role; stops the start when they do not fit the engine. */
export function taskStatesOf(polling: TaskPolling): TaskStates {
  const going = polling.states.filter((s) => !polling.terminalStates.includes(s));
  const failures = polling.terminalStates.filter((s) => s !== polling.successState);
  const [queued, running] = going;
  const [failed] = failures;
  if (going.length !== 2 || queued === undefined || running === undefined || failed === undefined)
    throw new Error(
      `The simulator moves a task through two states before a terminal one, and ends it in success or failure; the spec's task states are ${polling.states.join(", ")}, terminal ${polling.terminalStates.join(", ")}, success ${polling.successState}.`,
    );
  // The generated TaskState type is the bundled spec's; a served description may name others.
  return { queued, running, finished: polling.successState, failed } as TaskStates;
}

/**
 * How a task ends: `finish` applies what the task creates, at the clock time the task ends, and
 * returns its created_resources.
 */
export type Outcome =
  | { kind: "finish"; finish: (endMs: number) => CreatedResources }
  | { kind: "error"; error: string };

export interface TaskEngineOptions {
  clock: Clock;
  random: Random;
  /** Multiplies every task duration (0.01 turns 5-15 s into 50-150 ms). */
  timeScale: number;
  /** The typical duration of a task type, in seconds. */
  durationOf: (taskType: string) => TaskDuration;
  /** How long a task created through the API stays readable once it ended, in clock ms. */
  retentionMs: number;
  states: TaskStates;
  /** Fills the fields of a new task's record the engine does not set, from the spec's task schema. */
  complete?: (record: TaskEntry["record"]) => TaskEntry["record"];
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

  /**
   * Starts a task of `taskType` for the user `userId`, NEW now, ending as `outcome` says after its
   * drawn duration.
   */
  start(place: Omit<TaskEntry, "record">, userId: number, taskType: string, outcome: Outcome): TaskEntry {
    const createdMs = this.options.clock.now();
    const typical = this.options.durationOf(taskType);
    const seconds = typical.min + this.options.random.next() * (typical.max - typical.min);
    const record: TaskEntry["record"] = {
      id: this.options.random.uuid(),
      task_type: taskType,
      state: this.options.states.queued,
      error: null,
      created_on: withoutOffset(createdMs),
      finished_on: null,
      created_resources: null,
      user_id: userId,
      project_id: place.project_id,
      region_id: place.region_id,
    };
    const entry: TaskEntry = { ...place, record: this.options.complete?.(record) ?? record };
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
      if (next.kind === "run") next.task.entry.record.state = this.options.states.running;
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
      record.created_resources = task.outcome.finish(endMs);
      record.state = this.options.states.finished;
    } else {
      record.state = this.options.states.failed;
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
