// What the spec says about asynchronous tasks, as the task scenarios use it: the operation that
// polls a task, its states in order, which are terminal, the keys of `created_resources`, and the
// recommended poll interval of a task type (x-async-task and x-task-polling, through the model).

import {
  type AsyncTask,
  type OperationModel,
  operationById,
  type PollingInterval,
  pollingAdviceFor,
  taskPollingOf,
} from "@platform-api/spec";
import { specModel } from "./spec.js";

export interface TaskFacts {
  /** The operation that reads a task (x-async-task's pollOperationId). */
  poll: OperationModel;
  /** Every state, in the order the task schema's enum lists them (NEW, RUNNING, …). */
  states: readonly string[];
  /** The terminal state of success (x-task-polling's successState), and the other terminal states. */
  finished: string;
  failed: readonly string[];
  createdResourcesKeys: readonly string[];
}

export function taskFacts(asyncTask: AsyncTask): TaskFacts {
  const model = specModel();
  const polling = taskPollingOf(model);
  return {
    poll: operationById(model, asyncTask.pollOperationId),
    states: polling.states,
    finished: polling.successState,
    failed: polling.terminalStates.filter((s) => s !== polling.successState),
    createdResourcesKeys: polling.createdResourcesKeys,
  };
}

/**
 * Where a task stands in its life: the states before the terminal ones by their order in the enum,
 * every terminal state last. A state the spec does not list has none.
 */
export function stateRank(facts: TaskFacts, state: string): number | undefined {
  const terminal = [facts.finished, ...facts.failed];
  const before = facts.states.filter((s) => !terminal.includes(s));
  if (terminal.includes(state)) return before.length;
  const at = before.indexOf(state);
  return at < 0 ? undefined : at;
}

/**
 * The spec's polling row for the task type; a string saying why when it lists none (the suite does
 * not invent an interval).
 */
export function pollingFor(taskType: string | undefined): PollingInterval | string {
  const advice = pollingAdviceFor(specModel(), taskType);
  return advice.known ? advice.interval : advice.reason;
}
