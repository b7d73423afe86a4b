// `waitForTask(client, taskId)` and `waitForTasks(client, taskIds)`: functions of their own rather
// than methods, so that only programs that wait for tasks bundle the polling (AWS SDK v3's waiters).
import { type AnyPlatformClient, type PathsOf, rethrowing } from "./client.js";
import { internalsOf } from "./internals.js";
import type { SpecOperation } from "./operations.js";
import type { WithResponse } from "./results.js";
import {
  type FinishedTask,
  pollOperationFor,
  pollTask,
  pollTasks,
  taskPoller,
  type WaitForTaskOptions,
} from "./tasks.js";

/** The paths of operations that start an asynchronous task (x-async-task), within these paths. */
export type AsyncTaskPaths<Paths> = Extract<
  keyof Paths,
  Extract<SpecOperation, { asyncTask: object }>["path"]
>;

/**
 * Nothing for a client whose paths start a task; for one whose paths start none (the IAM
 * client's), a property it lacks, so that the compiler's error names the reason.
 */
export type TaskScope<Client> = [AsyncTaskPaths<PathsOf<Client>>] extends [never]
  ? { "waitForTask needs a client whose paths include an operation that starts a task": never }
  : unknown;

/** The poller of the client's scope, its errors redacted; a TypeError for a scope that starts no task. */
function pollerOf(client: unknown, helper: string) {
  const { product, redactor, send } = internalsOf(client, helper);
  const operation = pollOperationFor(product);
  if (!operation)
    throw new TypeError(
      `${helper}: the ${product} client's operations start no task, so there is none to wait for`,
    );
  return { poller: taskPoller(operation, send), rethrow: rethrowing(redactor) };
}

/**
 * Polls a task with the spec's poll operation (x-async-task's `pollOperationId`) until it ends:
 * FINISHED resolves with the task as the last poll answered it (that answer as `task.response`),
 * any other of the spec's terminal states throws TaskFailedError; the deadline throws
 * TaskTimeoutError. Errors are redacted of the client's keys.
 */
export function waitForTask<Client extends AnyPlatformClient>(
  client: Client & TaskScope<Client>,
  taskId: string,
  options?: WaitForTaskOptions,
): Promise<WithResponse<FinishedTask>> {
  const { poller, rethrow } = pollerOf(client, "waitForTask");
  return pollTask(poller, taskId, options).catch(rethrow);
}

/**
 * Waits for every task of a write call, e.g. `waitForTasks(client, data.tasks)`: resolves with all
 * of them finished, in the order given; throws the first failure in that order once every task
 * has ended, with the others' outcomes in its `outcomes`.
 */
export function waitForTasks<Client extends AnyPlatformClient>(
  client: Client & TaskScope<Client>,
  taskIds: readonly string[],
  options?: WaitForTaskOptions,
): Promise<WithResponse<FinishedTask>[]> {
  const { poller, rethrow } = pollerOf(client, "waitForTasks");
  return pollTasks(poller, taskIds, options).catch(rethrow);
}
