import { AbortError, ApiError, TaskFailedError, TaskTimeoutError } from "./errors.js";
import { TASK_POLLING } from "./generated/conventions.js";
import type { components } from "./generated/openapi.js";
import { sleep } from "./transport/sleep.js";

export type Task = components["schemas"]["Task"];
export type FinishedTask = Task & {
  state: "FINISHED";
  created_resources: NonNullable<Task["created_resources"]>;
};

export interface WaitForTaskOptions {
  /** overall deadline of the wait; default 30 minutes (the longest typical task, a Kubernetes cluster, takes 5-15) */
  timeoutMs?: number;
  /** poll interval; default: the spec's recommendation for the task's type, else 5 s */
  pollIntervalMs?: number;
  /** cancels the wait */
  signal?: AbortSignal;
  /** called with every task state seen */
  onProgress?: (task: Task) => void;
}

export const DEFAULT_TASK_TIMEOUT_MS = 30 * 60_000;
const DEFAULT_POLL_INTERVAL_MS = 5_000;

/** The spec's recommended poll interval for a task type, in ms (5 s when the type is not listed). */
export function recommendedPollIntervalMs(taskType: string | undefined): number {
  const row = TASK_POLLING.intervals.find((r) => "taskType" in r && r.taskType === taskType);
  return row ? row.pollIntervalSeconds * 1000 : DEFAULT_POLL_INTERVAL_MS;
}

/** Errors worth waiting through: the platform is busy or briefly failing, the task goes on. */
const isTransient = (error: unknown): boolean =>
  error instanceof ApiError &&
  !(error instanceof AbortError) &&
  (error.status === undefined || error.status === 429 || error.status >= 500);

export type TaskFetcher = (taskId: string, signal: AbortSignal | undefined) => Promise<Task>;

export async function waitForTask(
  fetchTask: TaskFetcher,
  taskId: string,
  options: WaitForTaskOptions = {},
): Promise<FinishedTask> {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TASK_TIMEOUT_MS;
  if (!(Number.isFinite(timeoutMs) && timeoutMs > 0)) {
    throw new RangeError(`timeoutMs must be a finite number of milliseconds above 0, got ${timeoutMs}`);
  }
  if (
    options.pollIntervalMs !== undefined &&
    !(Number.isFinite(options.pollIntervalMs) && options.pollIntervalMs > 0)
  ) {
    throw new RangeError(
      `pollIntervalMs must be a finite number of milliseconds above 0, got ${options.pollIntervalMs}`,
    );
  }
  const deadline = Date.now() + timeoutMs;
  const deadlineSignal = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadlineSignal]) : deadlineSignal;
  let last: Task | undefined;
  const stop = (): never => {
    if (options.signal?.aborted) {
      throw new AbortError(`waiting for task ${taskId} was aborted by the caller`, {
        method: "GET",
        path: `/cloud/v1/tasks/${taskId}`,
        attempts: 0,
        cause: options.signal.reason,
      });
    }
    throw new TaskTimeoutError(taskId, timeoutMs, last?.state);
  };

  for (;;) {
    try {
      last = await fetchTask(taskId, signal);
      options.onProgress?.(last);
      if (last.state === "FINISHED") return last as FinishedTask;
      if (last.state === "ERROR") throw new TaskFailedError(last);
      // Any other state, known or not, is not terminal: poll until FINISHED or ERROR.
    } catch (error) {
      if (signal.aborted) stop();
      if (!isTransient(error)) throw error;
    }
    const interval = options.pollIntervalMs ?? recommendedPollIntervalMs(last?.task_type);
    try {
      await sleep(Math.min(interval, Math.max(0, deadline - Date.now())), signal);
    } catch {
      stop();
    }
    if (Date.now() >= deadline) stop();
  }
}

/**
 * Waits for every task of a write call (the platform's own SDKs wait only for the first). Resolves
 * with all of them FINISHED, in the order given; throws the first TaskFailedError in that order
 * once every task has ended, with the others' outcomes in `outcomes`.
 */
export async function waitForTasks(
  fetchTask: TaskFetcher,
  taskIds: readonly string[],
  options: WaitForTaskOptions = {},
): Promise<FinishedTask[]> {
  const outcomes = await Promise.allSettled(taskIds.map((id) => waitForTask(fetchTask, id, options)));
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failure) {
    const error = failure.reason as Error & { outcomes?: typeof outcomes };
    error.outcomes = outcomes;
    throw error;
  }
  return outcomes.map((o) => (o as PromiseFulfilledResult<FinishedTask>).value);
}
