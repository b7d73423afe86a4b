// How long a task runs: the typical duration the spec's x-task-polling gives its task type, and,
// for a task type the table does not list, the simulator's own choice (`unlistedTaskSeconds`,
// documented as such in the README), decided here and nowhere else.

import { pollingAdviceFor, type SpecModel } from "@platform-api/spec";

/** A typical duration in seconds: a task's is drawn uniformly from it. */
export interface TaskDuration {
  min: number;
  max: number;
}

export function taskDurations(
  model: SpecModel,
  unlistedTaskSeconds: number,
): (taskType: string) => TaskDuration {
  const known = new Map<string, TaskDuration>();
  return (taskType) => {
    let duration = known.get(taskType);
    if (!duration) {
      const advice = pollingAdviceFor(model, taskType);
      duration = advice.known
        ? advice.interval.typicalDurationSeconds
        : { min: unlistedTaskSeconds, max: unlistedTaskSeconds };
      known.set(taskType, duration);
    }
    return duration;
  };
}
