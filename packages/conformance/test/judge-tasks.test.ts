// The judge's tasks (src/judge/tasks.ts), fed starts and polls made up here: what it keeps of each
// task, and which forgotten tasks it counts as lost to its bound.

import { describe, expect, it } from "vitest";
import { specModel } from "../src/facts/spec.js";
import { createTasks } from "../src/judge/tasks.js";
import { facts } from "../src/rules/task-rules.js";

const { finished, failed, states } = facts();
const terminal = [finished, ...failed];
const [waiting = ""] = states.filter((s) => !terminal.includes(s));
const key = specModel().operations.find((o) => o.asyncTask)?.asyncTask?.createdResourcesKey;

describe("tasks", () => {
  it("keeps what started a task and the state its last poll gave", () => {
    const tasks = createTasks({ tasks: 10, terminal });
    tasks.started(["t1", 7, null, "t2"], key);
    expect(tasks.seen("t1")).toEqual({ createdResourcesKey: key });
    tasks.polled("t1", waiting);
    tasks.polled("t1", finished);
    expect(tasks.seen("t1")).toEqual({ createdResourcesKey: key, state: finished });
    // A task whose start the traffic did not show.
    tasks.polled("t3", waiting);
    expect(tasks.seen("t3")).toEqual({ state: waiting });
    expect(tasks.seen("t4")).toBeUndefined();
    expect(tasks.dropped).toBe(0);
  });

  it("keeps at most `tasks`, the least recently seen forgotten first; one forgotten before its end is counted", () => {
    const tasks = createTasks({ tasks: 2, terminal });
    tasks.started(["a"], key);
    tasks.polled("b", finished);
    tasks.polled("c", waiting);
    expect(tasks.seen("a")).toBeUndefined();
    expect(tasks.dropped).toBe(1);
    // "b" ended: forgetting it loses nothing a rule could judge.
    tasks.polled("d", waiting);
    expect(tasks.dropped).toBe(1);
    // Seen again, "c" stays; "d" goes.
    expect(tasks.seen("c")).toEqual({ state: waiting });
    tasks.polled("e", failed[0] ?? "");
    expect(tasks.seen("d")).toBeUndefined();
    expect(tasks.dropped).toBe(2);
  });
});
