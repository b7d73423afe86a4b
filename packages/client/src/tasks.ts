// Waiting for the platform's asynchronous tasks, as the spec describes them: which operation reads
// a task (x-async-task's pollOperationId), which states end it and how often to poll
// (x-task-polling).

import type { components } from "@platform-api/spec/generated/openapi";
import { RUNTIME_MODEL } from "@platform-api/spec/generated/runtime-model";
import type { RuntimeModel, RuntimeOperation, RuntimeParameter } from "@platform-api/spec/model";
import { AbortError, ApiError, TaskFailedError, TaskTimeoutError } from "./errors.js";
import type { Send } from "./internals.js";
import { operationsIn, SPEC } from "./operations.js";
import { DEFAULTS } from "./options.js";
import { requireData, type WithResponse, withResponse } from "./results.js";
import { sleep } from "./transport/sleep.js";

export type Task = components["schemas"]["Task"];

/**
 * The spec's x-task-polling. Read from the model's literal type, where it is present: a
 * description without it fails to compile here, rather than at run time.
 */
const TASK_POLLING: NonNullable<RuntimeModel["conventions"]["taskPolling"]> =
  RUNTIME_MODEL.conventions.taskPolling;

/** The terminal state in which a task has done its work (x-task-polling's successState). */
type SuccessState = (typeof RUNTIME_MODEL)["conventions"]["taskPolling"]["successState"];

export type FinishedTask = Task & {
  state: Extract<Task["state"], SuccessState>;
  created_resources: NonNullable<Task["created_resources"]>;
};

export interface WaitForTaskOptions {
  /** overall deadline of the wait; default `DEFAULTS.taskTimeoutMs` */
  timeoutMs?: number;
  /** poll interval; default: the spec's interval for the task's type, else `fallbackPollIntervalMs` */
  pollIntervalMs?: number;
  /**
   * Poll interval for a task whose type the spec lists no interval for (x-task-polling names only
   * some task types); default `DEFAULTS.fallbackPollIntervalMs`. The client's choice, not the spec's.
   */
  fallbackPollIntervalMs?: number;
  /** cancels the wait */
  signal?: AbortSignal;
  /** called with every task state seen */
  onProgress?: (task: Task) => void;
}

/** How a client reads one task: the spec's poll operation, sent through the client. */
export interface TaskPoller {
  /** The poll operation's method ("GET"). */
  readonly method: string;
  /** The task's path ("/cloud/v1/tasks/5a0a…"), for messages. */
  path(taskId: string): string;
  /** The task as the server answered, with that answer as `response`. */
  fetch(taskId: string, signal: AbortSignal | undefined): Promise<WithResponse<Task>>;
}

/**
 * The spec's poll interval for a task type, in ms; for a type the spec lists no interval for,
 * `fallbackMs` (default `DEFAULTS.fallbackPollIntervalMs`, the client's choice).
 */
export function recommendedPollIntervalMs(
  taskType: string | undefined,
  fallbackMs: number = DEFAULTS.fallbackPollIntervalMs,
): number {
  // The row itself, not pollingAdviceFor: its reasons for a missing row are for tools, and the
  // client only needs the number.
  const row = TASK_POLLING.intervals.find((r) => r.taskType === taskType);
  return row ? row.pollIntervalSeconds * 1000 : fallbackMs;
}

/**
 * The operation that reads a task started by the scope's asynchronous operations (their
 * x-async-task `pollOperationId`), or undefined when none of them starts a task: `waitForTask`
 * refuses such a client. The model is compiled in, so what this assumes of it (one poll
 * operation per scope, in the model, with one path parameter: the task id) is checked by the tests
 * ("the spec's task operations") rather than on every client's creation.
 */
export function pollOperationFor(product: string | undefined): RuntimeOperation | undefined {
  const id = operationsIn(product).find((o) => o.asyncTask)?.asyncTask?.pollOperationId;
  return SPEC.operations.find((o) => o.operationId === id);
}

/** A poller that reads a task with `operation` (its one path parameter is the task id), through `send`. */
export function taskPoller(operation: RuntimeOperation, send: Send): TaskPoller {
  const idParam = operation.parameters.find((p) => p.in === "path") as RuntimeParameter;
  const method = operation.method.toUpperCase();
  const path = (taskId: string) => operation.path.replace(`{${idParam.name}}`, encodeURIComponent(taskId));
  return {
    method,
    path,
    fetch: async (taskId, signal) => {
      const result = await send(method, operation.path, {
        params: { path: { [idParam.name]: taskId } },
        signal,
      });
      return withResponse(requireData(result, method, path(taskId)) as Task, result.response);
    },
  };
}

/** Errors worth waiting through: the platform is busy or briefly failing, the task goes on. */
const isTransient = (error: unknown): boolean =>
  error instanceof ApiError &&
  !(error instanceof AbortError) &&
  (error.status === undefined || error.status === 429 || error.status >= 500);

function checkMs(option: string, value: number | undefined): void {
  if (value !== undefined && !(Number.isFinite(value) && value > 0))
    throw new RangeError(`${option} must be a finite number of milliseconds above 0, got ${value}`);
}

export async function pollTask(
  poller: TaskPoller,
  taskId: string,
  options: WaitForTaskOptions = {},
): Promise<WithResponse<FinishedTask>> {
  const timeoutMs = options.timeoutMs ?? DEFAULTS.taskTimeoutMs;
  checkMs("timeoutMs", timeoutMs);
  checkMs("pollIntervalMs", options.pollIntervalMs);
  checkMs("fallbackPollIntervalMs", options.fallbackPollIntervalMs);
  const { terminalStates, successState } = TASK_POLLING;
  const deadline = Date.now() + timeoutMs;
  const deadlineSignal = AbortSignal.timeout(timeoutMs);
  const signal = options.signal ? AbortSignal.any([options.signal, deadlineSignal]) : deadlineSignal;
  let last: WithResponse<Task> | undefined;
  const stop = (): never => {
    if (options.signal?.aborted) {
      throw new AbortError(`waiting for task ${taskId} was aborted by the caller`, {
        method: poller.method,
        path: poller.path(taskId),
        attempts: 0,
        cause: options.signal.reason,
      });
    }
    throw new TaskTimeoutError(taskId, timeoutMs, last?.state);
  };

  for (;;) {
    try {
      last = await poller.fetch(taskId, signal);
      options.onProgress?.(last);
      // The last poll's answer is the task's final one: its body, with its response.
      if (last.state === successState) return last as WithResponse<FinishedTask>;
      if (last.state !== undefined && terminalStates.includes(last.state)) throw new TaskFailedError(last);
      // Any other state, known, unknown or absent, is not terminal: poll until a terminal one.
    } catch (error) {
      if (signal.aborted) stop();
      if (!isTransient(error)) throw error;
    }
    const interval =
      options.pollIntervalMs ?? recommendedPollIntervalMs(last?.task_type, options.fallbackPollIntervalMs);
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
 * with all of them finished (each with its last poll's `response`), in the order given; throws the first TaskFailedError in that order
 * once every task has ended, with the others' outcomes in `outcomes`.
 */
export async function pollTasks(
  poller: TaskPoller,
  taskIds: readonly string[],
  options: WaitForTaskOptions = {},
): Promise<WithResponse<FinishedTask>[]> {
  const outcomes = await Promise.allSettled(taskIds.map((id) => pollTask(poller, id, options)));
  const failure = outcomes.find((o): o is PromiseRejectedResult => o.status === "rejected");
  if (failure) {
    const error = failure.reason as Error & { outcomes?: typeof outcomes };
    error.outcomes = outcomes;
    throw error;
  }
  return outcomes.map((o) => (o as PromiseFulfilledResult<WithResponse<FinishedTask>>).value);
}
