// `pnpm workflows [--base-url <url>] [--workflow <file or id>]`: the Arazzo workflows of
// spec/workflows, run by Redocly Respect. Without --base-url they run against the embedded
// simulator, started here on a free loopback port; with it, against that endpoint, with the token
// from GCORE_API_KEY (create-volume-and-wait creates a real volume there).
import { parseArgs } from "node:util";
import { startSimulator } from "../packages/simulator/dist/index.js";
import { printResults, runWorkflows } from "../spec/scripts/workflows.mjs";

// Task durations run at a fifth of the platform's typical ones, so a volume (5-15 s) is ready by
// the workflow's second poll, 5 s after the first, as the platform's recommended interval says.
const SIMULATOR_TIME_SCALE = 0.2;

const { values } = parseArgs({
  options: { "base-url": { type: "string" }, workflow: { type: "string", multiple: true } },
});

const simulator = values["base-url"]
  ? undefined
  : await startSimulator({ port: 0, timeScale: SIMULATOR_TIME_SCALE, env: {} });
try {
  const target = simulator ? `the simulator at ${simulator.url}` : values["base-url"];
  console.log(`Running the Arazzo workflows against ${target}`);
  const results = await runWorkflows({
    baseUrl: simulator?.url ?? values["base-url"],
    // biome-ignore lint/suspicious/noUndeclaredEnvVars: read by this script, never by a turbo task.
    token: simulator?.apiKey ?? process.env.GCORE_API_KEY,
    only: values.workflow,
  });
  printResults(results);
  process.exitCode = results.every((r) => r.passed) ? 0 : 1;
} catch (error) {
  console.error(error.message);
  process.exitCode = 2;
} finally {
  await simulator?.close();
}
