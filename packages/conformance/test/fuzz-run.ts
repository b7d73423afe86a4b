// One in-process `conformance fuzz` run (runFuzz, as the CLI calls it after parsing its flags) for
// the fuzz tests: the CLI's defaults, paced at the spec's own rate (the tests' targets are ours),
// its lines collected, its report read.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { DEFAULTS } from "../src/cli/options.js";
import { requestsPerSecond } from "../src/facts/rate.js";
import { FUZZ_DEFAULTS, type FuzzOptions } from "../src/fuzz/options.js";
import { runFuzz } from "../src/fuzz/run.js";
import type { RunIo } from "../src/report/run-output.js";
import type { Report } from "../src/shared/results.js";
import type { FaultyTarget } from "./faulty-target.js";

const dir = mkdtempSync(join(tmpdir(), "fuzz-"));
let runs = 0;

/** A run's options: the CLI's defaults, paced at the spec's own rate, a report folder of its own. */
export function fuzzOptions(over: Partial<FuzzOptions> = {}): FuzzOptions {
  return {
    target: "simulator",
    apiKeyEnv: DEFAULTS.apiKeyEnv,
    resellerApiKeyEnv: DEFAULTS.resellerApiKeyEnv,
    allowWrites: false,
    allowBurst: false,
    only: [],
    rateLimit: requestsPerSecond(),
    report: join(dir, `run-${++runs}`),
    strict: false,
    dryRun: false,
    maxExamples: 10,
    phases: [...FUZZ_DEFAULTS.phases],
    seed: 7,
    baselineUpdate: false,
    ...over,
  };
}

/** A run against `target` (a faulty one's URL and keys), or the embedded simulator when none is given. */
export async function fuzz(
  over: Partial<FuzzOptions>,
  target?: FaultyTarget,
  io: Pick<RunIo, "signal"> = {},
) {
  const lines: string[] = [];
  const env = target
    ? { [DEFAULTS.apiKeyEnv]: target.sim.apiKey, [DEFAULTS.resellerApiKeyEnv]: target.sim.resellerApiKey }
    : {};
  const result = await runFuzz(
    fuzzOptions({ ...(target ? { target: target.url, timeScale: 0.01 } : {}), ...over }),
    { env, write: (line) => lines.push(line), notice: () => {}, ...io },
  );
  const report = result.report as Report;
  // Colours are the terminal's business (on when FORCE_COLOR is set, as under CI's other Node versions).
  return { ...result, report, out: stripVTControlCharacters(lines.join("\n")) };
}

/** A folder for a test's own files. */
export const scratch = (prefix: string) => mkdtempSync(join(dir, prefix));
