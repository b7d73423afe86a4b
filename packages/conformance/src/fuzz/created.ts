// What a fuzz run created, to list in its report so that it can be deleted: the tasks its writes
// started (the operation's x-async-task field in a 2xx answer) and, once a task is seen finished,
// the resources it says it created. Each resource once, in the order it was seen.

import type { OperationModel } from "@platform-api/spec";
import type { CreatedResource } from "../shared/context.js";
import type { FuzzRequest } from "../shared/finding.js";
import { fieldOf } from "../shared/json.js";

/** Adds the tasks a 2xx answer to `request` started. */
export function noteStartedTasks(
  created: CreatedResource[],
  operation: OperationModel,
  request: FuzzRequest,
  status: number,
  body: unknown,
): void {
  if (!(status >= 200 && status < 300 && operation.asyncTask)) return;
  const tasks = fieldOf(body, operation.asyncTask.tasksField);
  for (const id of Array.isArray(tasks) ? tasks : [])
    if (typeof id === "string" && !created.some((r) => r.type === "task" && r.id === id))
      created.push({
        type: "task",
        id,
        ...(request.params.project_id ? { project_id: Number(request.params.project_id) } : {}),
        ...(request.params.region_id ? { region_id: Number(request.params.region_id) } : {}),
      });
}

/** Adds what a task seen in its terminal state created, in the task's project and region. */
export function noteFinishedTask(created: CreatedResource[], taskId: string, task: unknown): void {
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
}
