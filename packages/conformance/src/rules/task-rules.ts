// The task rules the seed states, judged on every poll a client makes: a state never moves back,
// FINISHED lists what the task created, ERROR says why and lists nothing.
//
// One file: the four share what a task is (the spec's x-task-polling through src/facts/tasks.ts).

import type { OperationModel } from "@platform-api/spec";
import { specModel } from "../facts/spec.js";
import { stateRank, type TaskFacts, taskFacts } from "../facts/tasks.js";
import type { Need } from "../shared/context.js";
import { rule } from "./types.js";

/** The task facts, read once from the first operation that starts a task. */
export function facts(): TaskFacts {
  if (known) return known;
  const asyncTask = specModel().operations.find((o) => o.asyncTask)?.asyncTask;
  if (!asyncTask)
    throw new Error("the spec has no x-async-task operation: the task rules have nothing to judge");
  known = taskFacts(asyncTask);
  return known;
}

let known: TaskFacts | undefined;

/** An active run polls tasks it created: it needs writes and a server that keeps state. */
const TASK_NEEDS: Need[] = ["writes", "state", "project", "region"];

const isPoll = (operation: OperationModel) => operation.operationId === facts().poll.operationId;

export const taskStateMovesForward = rule({
  id: "tasks.poll.state-moves-forward",
  severity: "must",
  refuses: false,
  perOperation: false,
  appliesTo: "the operation that polls a task (x-async-task's pollOperationId)",
  needs: () => TASK_NEEDS,
  judges: "every poll of a task seen before: its state never moves back, a terminal state never changes",
  on: "task",
  applies: isPoll,
  title: () => "a polled task's state only moves forward",
  judge: ({ taskId, state, before }) => {
    if (before === undefined) return undefined;
    const f = facts();
    const was = stateRank(f, before);
    const now = stateRank(f, state);
    if (was === undefined || now === undefined) return undefined;
    const terminal = [f.finished, ...f.failed];
    if (now < was || (terminal.includes(before) && state !== before))
      return `task ${taskId} moved from ${before} back to ${state}`;
    return null;
  },
});

export const taskFinishedCreatedId = rule({
  id: "tasks.finished.created-id",
  severity: "must",
  refuses: false,
  perOperation: false,
  appliesTo: "the operation that polls a task (x-async-task's pollOperationId)",
  needs: () => TASK_NEEDS,
  judges: "every FINISHED task the traffic saw started: created_resources lists what it created",
  on: "task",
  applies: isPoll,
  title: () => "a FINISHED task lists the created resource's id in created_resources",
  judge: ({ taskId, state, body, createdResourcesKey }) => {
    if (state !== facts().finished || createdResourcesKey === undefined) return undefined;
    const created = body.created_resources;
    const ids =
      typeof created === "object" && created !== null
        ? (created as Record<string, unknown>)[createdResourcesKey]
        : undefined;
    return Array.isArray(ids) && ids.length > 0
      ? null
      : `task ${taskId} is ${state} but created_resources.${createdResourcesKey} is ${JSON.stringify(ids ?? null)}`;
  },
});

export const taskErrorHasReason = rule({
  id: "tasks.error.has-reason",
  severity: "must",
  refuses: false,
  perOperation: false,
  appliesTo: "the operation that polls a task (x-async-task's pollOperationId)",
  needs: () => TASK_NEEDS,
  judges: "every task in a failed terminal state (ERROR): error holds a text reason",
  on: "task",
  applies: isPoll,
  title: () => "a task in ERROR says why in error",
  judge: ({ taskId, state, body }) => {
    if (!facts().failed.includes(state)) return undefined;
    return typeof body.error === "string" && body.error.trim() !== ""
      ? null
      : `task ${taskId} is ${state} with error ${JSON.stringify(body.error ?? null)}`;
  },
});

export const taskErrorCreatedResourcesNull = rule({
  id: "tasks.error.created-resources-null",
  severity: "must",
  refuses: false,
  perOperation: false,
  appliesTo: "the operation that polls a task (x-async-task's pollOperationId)",
  needs: () => TASK_NEEDS,
  judges:
    "every task in ERROR: created_resources null (or left out: nothing listed), nothing from it created",
  on: "task",
  applies: isPoll,
  title: () => "a task in ERROR has created_resources null",
  judge: ({ taskId, state, body }) => {
    if (!facts().failed.includes(state)) return undefined;
    // Left out is nothing listed: the field is required only by the spec's inference.
    return body.created_resources === null || body.created_resources === undefined
      ? null
      : `task ${taskId} is ${state} but created_resources is ${JSON.stringify(body.created_resources)}`;
  },
});
