// A short history of the default client's cloud tasks in project 1 / Luxembourg-2: finished
// creates and a delete, and a create that failed on a quota. `created_resources` has every key of
// the spec's task schema; the task types are the spec's examples.

import { modelOf, taskPollingOf } from "@platform-api/spec";
import type { AsDescribed } from "@platform-api/spec/generated/openapi";
import { withoutOffset } from "../../clock.js";
import type { Random } from "../../random.js";
import { taskStatesOf } from "../../tasks/engine.js";
import { noCreatedResources } from "../spec-facts.js";
import type { TaskEntry } from "../types.js";
import { DEFAULT_CLIENT_ID, DEFAULT_USER_ID } from "./clients.js";
import { EPOCH } from "./epoch.js";

type Task = AsDescribed<"Task">;

const MINUTE_MS = 60_000;

export function tasks(doc: object, random: Random): TaskEntry[] {
  const entry = (
    minutesAgo: number,
    task_type: string,
    state: Task["state"],
    created_resources: Task["created_resources"],
    error: string | null,
  ): TaskEntry => {
    const created_on = EPOCH - minutesAgo * MINUTE_MS;
    return {
      client_id: DEFAULT_CLIENT_ID,
      project_id: 1,
      region_id: 76,
      record: {
        id: random.uuid(),
        task_type,
        state,
        error,
        created_on: withoutOffset(created_on),
        finished_on: withoutOffset(created_on + random.int(10, 60) * 1000),
        created_resources,
        user_id: DEFAULT_USER_ID,
        project_id: 1,
        region_id: 76,
      },
    };
  };
  const none = noCreatedResources(doc);
  const { finished, failed } = taskStatesOf(taskPollingOf(modelOf(doc)));
  return [
    entry(
      300,
      "create_vm",
      finished,
      { ...none, instances: [random.uuid()], volumes: [random.uuid()] },
      null,
    ),
    entry(240, "create_volume", finished, { ...none, volumes: [random.uuid()] }, null),
    entry(180, "delete_vm", finished, none, null),
    entry(
      120,
      "create_volume",
      failed,
      null,
      "Quota exceeded: volume_size_limit is 5000 GiB; 4990 GiB in use and 20 GiB requested exceed it by 10 GiB",
    ),
  ];
}
