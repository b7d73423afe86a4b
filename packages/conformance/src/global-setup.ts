// Under plain vitest (`pnpm scenarios`), nothing has provided a run context: start the target the
// flags in CONFORMANCE_ARGS name (default: the embedded simulator) and provide it to the scenarios.
import type { TestProject } from "vitest/node";
import { parseArgs } from "./cli/cli-options.js";
import { checkOptions } from "./discovery/check-options.js";
import { prepareRun } from "./discovery/prepare.js";

export default async function setup(project: TestProject) {
  if (project.getProvidedContext().conformance) return undefined;
  const args = (process.env.CONFORMANCE_ARGS ?? "").split(/\s+/).filter(Boolean);
  const options = parseArgs(args);
  // The same ranges as the CLI's (a pace too slow for a timer would be no pace at all).
  checkOptions(options);
  const prepared = await prepareRun(options);
  project.provide("conformance", prepared.context);
  return () => prepared.close();
}
