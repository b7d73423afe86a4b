// The tasks the traffic showed: started by an operation with x-async-task (which `created_resources`
// key its task fills), then polled (the state each poll gave). The task rules judge a poll against
// what was kept of the task before it (src/rules/task-rules.ts).

import { BoundedMap } from "../shared/bounded-map.js";

export interface TaskSeen {
  /** The state the last poll gave; undefined when only its start was seen. */
  state?: string;
  /** The `created_resources` key of the operation that started it, when the traffic showed that. */
  createdResourcesKey?: string;
}

export interface Tasks {
  /** What is kept of a task, undefined when it was never seen (or forgotten). */
  seen(taskId: string): TaskSeen | undefined;
  /** A poll gave the task this state. */
  polled(taskId: string, state: string): void;
  /** An operation started these tasks (what else an answer's task list holds is not a task id). */
  started(taskIds: readonly unknown[], createdResourcesKey: string | undefined): void;
  /** Tasks forgotten before a terminal state to stay within `tasks`. */
  readonly dropped: number;
}

export function createTasks(options: {
  /** Most tasks kept (LIMITS.tasks). */
  tasks: number;
  /** The states a task ends in (the spec's finished and failed states). */
  terminal: readonly string[];
}): Tasks {
  let dropped = 0;
  // A task forgotten after its terminal state loses nothing; one forgotten before it does.
  const tasks = new BoundedMap<string, TaskSeen>(options.tasks, (_id, seen) => {
    if (!options.terminal.includes(seen.state ?? "")) dropped++;
  });
  return {
    seen: (taskId) => tasks.get(taskId),
    polled(taskId, state) {
      tasks.set(taskId, { ...tasks.get(taskId), state });
    },
    started(taskIds, createdResourcesKey) {
      for (const id of taskIds) if (typeof id === "string") tasks.set(id, { createdResourcesKey });
    },
    get dropped() {
      return dropped;
    },
  };
}
