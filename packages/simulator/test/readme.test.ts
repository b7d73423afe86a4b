// The README's curl session and library example run as written, so the README cannot drift from
// what the simulator does.
import { execFile } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { promisify } from "node:util";
import { loadModel, operationById, taskPollingOf } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { startSimulator } from "../src/index.js";
import { TASK_STATES } from "./harness.js";

const run = promisify(execFile);
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
/** Past the longest typical task duration of the spec's polling table, in seconds. */
const LONGEST_TASK_SECONDS =
  1 + Math.max(...taskPollingOf(loadModel()).intervals.map((row) => row.typicalDurationSeconds.max));

describe("README", () => {
  it("runs the curl session: list regions, create a volume, poll its task", async () => {
    const session = /<!-- readme-session[^>]*-->\n```sh\n([\s\S]*?)```/.exec(readme)?.[1];
    expect(session).toBeDefined();
    // The default random seed makes the first task id the one the README polls. A real socket:
    // curl is another process.
    const sim = await startSimulator({ port: 0, env: {} });
    try {
      const script = (session as string).replaceAll("http://127.0.0.1:4020", sim.url);
      // One answer per line; before each call the simulated clock moves past any task's typical
      // duration (the admin surface), so the task is done when polled without waiting for it.
      const advance = `command curl -s -o /dev/null -X POST -H 'Content-Type: application/json' -d '{"advance_seconds":${LONGEST_TASK_SECONDS}}' ${sim.url}/_sim/clock`;
      const prelude = `set -e\ncurl() { ${advance}; command curl "$@"; echo; }\n`;
      const { stdout } = await run("bash", ["-c", prelude + script], { timeout: 60_000 });
      const [regions, created, task] = stdout
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line));
      expect(regions.results).toHaveLength(2);
      expect(regions.count).toBeGreaterThan(2);
      expect(created.tasks).toHaveLength(1);
      const volumeTask = operationById(loadModel(), "createVolume").asyncTask;
      expect(task).toMatchObject({
        id: created.tasks[0],
        task_type: volumeTask?.taskType,
        state: TASK_STATES.finished,
      });
      expect(readme).toContain(`{"tasks":["${created.tasks[0]}"]}`);
      const key = String(volumeTask?.createdResourcesKey);
      expect(readme).toContain(`"${key}":["${task.created_resources[key][0]}"]`);
      expect(readme).toContain(JSON.stringify(regions));
    } finally {
      await sim.close();
    }
  });

  // A real process: the example runs as a user runs it, in plain Node against the built package
  // (resolved by its name), and must let the process end once it closes the simulator.
  it("runs the library example", async () => {
    const code = /```ts\n([\s\S]*?)```/.exec(readme)?.[1] as string;
    // Inside the package, so that `@platform-api/simulator` resolves to this package itself.
    const file = new URL("./.readme-example.tmp.mjs", import.meta.url);
    writeFileSync(file, code);
    try {
      const { stdout } = await run(process.execPath, [file.pathname], {
        timeout: 60_000,
        env: { ...process.env, GCORE_API_KEY: "" },
      });
      expect(stdout.trim()).toBe("200 [ 'client', 'reseller', 'read-only', 'expired', 'other client' ]");
    } finally {
      rmSync(file, { force: true });
    }
  });
});
