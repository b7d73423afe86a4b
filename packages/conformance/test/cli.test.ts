// The CLI as users run it: usage errors exit 2 with a clear message, --dry-run calls nothing,
// --only selects, --strict turns `should` warnings into failures, the reports are written, and a
// server given by URL and key (a simulator started separately, in its own process) is checked.
//
// Only what needs the process spawns the built CLI: commander's refusals (its exit code is set by
// the process's exitOverride), one per command that parses its own flags and that no other test
// spawns refused (observe, fuzz; the main command's is secrecy.test.ts's spawned usage error, exit 2
// from the process), and one whole run against a simulator in a process of its own (which also
// proves the simulator's --api-key and --reseller-api-key: no other test starts it with them). The rest goes through the CLI's path
// after the process (its flag parser, then runConformance) in this test's process: its output,
// exit code and reports are the same in any process, and two run hosts' start and module graph
// cost more CPU than the runs they made (test/run-in-process.ts).

import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";
import { operationById, requireParameter } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createVitest } from "vitest/node";
import { resultIds } from "../src/active/scenario-ids.js";
import { largestPage, offsetList } from "../src/facts/offset.js";
import { rateText, requestsPerSecond } from "../src/facts/rate.js";
import { specModel } from "../src/facts/spec.js";
import { MAX_DURATION_SECONDS } from "../src/traffic/commands.js";
import { startFaultyTarget } from "./faulty-target.js";
import { type CliRun, failedIds, runCli } from "./run-cli.js";
import { runInProcess } from "./run-in-process.js";

const SIM_CLI = fileURLToPath(new URL("../../simulator/dist/cli.js", import.meta.url));
const KEY = "777$conformance-cli-test-key-5c2a";
const RESELLER_KEY = "888$conformance-cli-reseller-9d1e";
/** The separately started simulator is stopped after this long whatever happens. */
const SIM_LIFETIME_MS = 600_000;
const model = specModel();
const regions = offsetList(operationById(model, "listRegions"));
const above = String(requestsPerSecond() * 5);

// Every flag's own refusals are tested in-process (cli-options.test.ts).
describe.concurrent("usage and configuration errors exit 2 with a message", () => {
  // As the process shows them: commander's parser, for the commands whose refusal no other test
  // spawns (the main command's: secrecy.test.ts's spawned usage error).
  it.each([
    [
      ["observe", "--upstream", "http://127.0.0.1:9", "--duration", "3000000"],
      `at most ${MAX_DURATION_SECONDS}`,
    ],
    [
      ["fuzz", "--phases", "coverage,bogus"],
      /--phases "bogus" is not allowed: give one or more of coverage, fuzz, stateful/,
    ],
  ])("the process: %j", async (args, message) => {
    const run = await runCli(args);
    expect(run.code).toBe(2);
    if (typeof message === "string") expect(run.stdout + run.stderr).toContain(message);
    else expect(run.stdout + run.stderr).toMatch(message);
  });

  // The options' checks and the target's, after the flags are parsed.
  it.each([
    [["--rate-limit", above], `--rate-limit ${above} is above the platform's ${rateText()}`],
    [["--target", "ftp://example.com"], /only http:\/\/ and https:\/\/ URLs are allowed/],
  ])("%j", async (args, message) => {
    const run = await runInProcess(args);
    expect(run.code, run.stderr).toBe(2);
    if (typeof message === "string") expect(run.stdout).toContain(message);
    else expect(run.stdout).toMatch(message);
  });

  it("names the empty variable when a URL target has no key", async () => {
    const run = await runInProcess(["--target", "http://127.0.0.1:9", "--api-key-env", "MY_PLATFORM_TOKEN"]);
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/No API key: the environment variable MY_PLATFORM_TOKEN is empty or not set/);
  });

  it("says the target cannot be reached, without the key", async () => {
    // Tried again after pauses of the time scale's (1 s each at 1): the message is what is checked.
    const run = await runInProcess(["--target", "http://127.0.0.1:9", "--time-scale", "0.01"], {
      GCORE_API_KEY: KEY,
    });
    expect(run.code).toBe(2);
    expect(run.stdout).toMatch(/cannot be reached/);
    expect(run.stdout + run.stderr).not.toContain(KEY);
  });
});

describe.concurrent("--dry-run and --only", () => {
  it("lists every scenario and what it would call, calling nothing", async () => {
    // Port 9 (discard) has no server: a dry run that called anything would fail.
    const run = await runInProcess(["--target", "http://127.0.0.1:9", "--dry-run"], { GCORE_API_KEY: KEY });
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/Dry run: nothing is called\. \d+ scenarios/);
    expect(run.stdout).toContain(
      `pagination.offset.count-is-total.listRegions (must) — run\n    GET ?${regions.limit.name}=1\n`,
    );
    expect(run.stdout).toContain(
      `\n    GET ?${regions.limit.name}=${largestPage(regions)}&${regions.offset.name}=0\n`,
    );
    expect(run.stdout).toMatch(
      /tasks\.create\.answers-tasks \(must\) — skip: creates or changes a resource: runs only with --allow-writes/,
    );
    // A dry run discovers nothing, and what needs the project or region it would find still runs.
    expect(run.stdout).toContain("pagination.offset.count-is-total.listInstances (must) — run");
    expect(run.files["report.json"]).toBeUndefined();
    // Every id a run can report, what --only is checked against (only-check.test.ts), and no other.
    const listed = [...run.stdout.matchAll(/^(\S+) \(\w+\) — /gm)].map((found) => found[1]);
    expect(new Set(listed)).toEqual(new Set(resultIds()));
  });

  // One run for what the two tests below prove of --only (a run against the embedded simulator
  // is the costly part): a glob and an exact id select just what they match, and a rule judged on
  // a story's calls runs the story for it and is reported alone.
  const story = "tasks.poll.state-moves-forward";
  const byId = "errors.unknown-id-404.getTask";
  let selected: Promise<CliRun> | undefined;
  const selectedRun = () =>
    (selected ??= runInProcess(["--allow-writes", "--only", "auth.*", "--only", byId, "--only", story]));

  it("--only runs just the matching scenarios", async () => {
    const run = await selectedRun();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    const ids = run.report?.scenarios.map((s) => s.id) ?? [];
    expect(ids.filter((id) => id.startsWith("auth.")).length).toBeGreaterThan(3);
    expect(ids.every((id) => id.startsWith("auth.") || id === byId || id === story)).toBe(true);
    expect(ids).toContain(byId);
    // The reseller rule is judged on the client token's call, a step of the auth story.
    expect(run.report?.scenarios.find((s) => s.id === "auth.reseller.client-token-forbidden")?.status).toBe(
      "passed",
    );
  });

  it("--only a rule judged on a story's calls runs the story for it, reports the rule alone, and lists what it created", async () => {
    const run = await selectedRun();
    expect(run.code, run.stdout + run.stderr).toBe(0);
    // Of the story's results, the rule alone (the others selected are auth.* and the getTask id).
    expect(
      run.report?.scenarios
        .filter((s) => !s.id.startsWith("auth.") && s.id !== byId)
        .map((s) => [s.id, s.status]),
    ).toEqual([[story, "passed"]]);
    const tasks = run.report?.createdResources.filter((r) => r.type === "task") ?? [];
    expect(tasks.length).toBeGreaterThan(0);
    // The story's: the rule's evidence reads each of them.
    const read = run.report?.scenarios.find((s) => s.id === story)?.evidence.map((e) => e.path) ?? [];
    for (const task of tasks) expect(read.some((path) => path.includes(task.id))).toBe(true);
  });
});

describe.concurrent("severity", () => {
  // The AI task list's documented default page size, and a target that serves half as many.
  const listAiTasks = operationById(model, "listAiTasks");
  const pagination = listAiTasks.pagination;
  if (!pagination) throw new Error("listAiTasks has no x-pagination in the spec.");
  const limit = requireParameter(listAiTasks, pagination.limitParam, "query");
  const documented = Number(limit.default);
  const served = Math.floor(documented / 2);
  const defect = {
    name: `AI task default limit ${served}`,
    fails: [],
    request: (ex: { path: string; query: URLSearchParams }) => {
      if (ex.path === listAiTasks.path && !ex.query.has(limit.name)) ex.query.set(limit.name, String(served));
      return undefined;
    },
  };

  it("a failed `should` is a warning (exit 0) unless --strict (exit 1)", async () => {
    const target = await startFaultyTarget(defect);
    try {
      const env = { GCORE_API_KEY: target.sim.apiKey };
      const args = [
        "--target",
        target.url,
        "--only",
        `pagination.page.default-limit.${listAiTasks.operationId}`,
      ];
      const [lenient, strict] = await Promise.all([
        runInProcess(args, env),
        runInProcess([...args, "--strict"], env),
      ]);
      expect(lenient.code).toBe(0);
      expect(lenient.report?.summary).toEqual({ passed: 0, failed: 0, warned: 1, skipped: 0, flaky: 0 });
      expect(lenient.report?.scenarios[0]?.reason).toContain(`holds ${served} items; expected ${documented}`);
      expect(strict.code).toBe(1);
      expect(failedIds(strict)).toEqual([`pagination.page.default-limit.${listAiTasks.operationId}`]);
    } finally {
      await target.close();
    }
  });
});

describe.concurrent("a server given by URL and key: a simulator started separately", () => {
  let sim: ChildProcess;
  let exited: Promise<unknown>;
  let url = "";

  beforeAll(async () => {
    sim = spawn(
      process.execPath,
      [SIM_CLI, "--port", "0", "--time-scale", "0.01", "--api-key", KEY, "--reseller-api-key", RESELLER_KEY],
      // `timeout` bounds its life should afterAll never run; this file ends long before.
      {
        stdio: ["ignore", "pipe", "inherit"],
        env: { PATH: process.env.PATH ?? "" },
        timeout: SIM_LIFETIME_MS,
      },
    );
    exited = once(sim, "exit");
    // Its first line names the address; a start that fails ends the process instead.
    url = await new Promise<string>((resolve, reject) => {
      let out = "";
      sim.stdout?.on("data", (chunk: Buffer) => {
        out += chunk.toString();
        const found = /at (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (found) resolve(found[1] as string);
      });
      sim.once("exit", (code) =>
        reject(new Error(`the simulator exited (${code}) before it listened: ${out}`)),
      );
    });
  });
  afterAll(async () => {
    if (sim && sim.exitCode === null && sim.signalCode === null) {
      sim.kill("SIGTERM");
      await exited;
    }
  });

  it("passes with writes, writes every report, and never shows a key", async () => {
    // The built CLI in its own process, the package's one whole run that should pass so: the exit
    // code 0 the process ends with and its real stdout and stderr, not lines handed to a callback
    // (secrecy.test.ts's spawned run is the one that ends 1).
    const run = await runCli(
      [
        "--target",
        url,
        "--allow-writes",
        // The simulator runs tasks at 0.01; telling the suite 0.1 gives a task 6 s rather than
        // 2 s to be seen finished, so a loaded machine's slow answers are never a finding.
        "--time-scale",
        "0.1",
        "--protection-profile-id",
        "4212",
        "--gpu-flavor",
        "g3-ai-32-192-1500-l40s-48-1",
      ],
      { GCORE_API_KEY: KEY, GCORE_RESELLER_API_KEY: RESELLER_KEY },
    );
    expect(failedIds(run)).toEqual([]);
    expect(run.code).toBe(0);
    const report = run.report;
    expect(report?.target).toBe(url);
    // Only the burst is left out (no --allow-burst).
    expect(
      report?.scenarios
        .filter((s) => s.status === "skipped")
        .map((s) => s.id)
        .sort(),
    ).toEqual([
      "rate-limit.burst-meets-429",
      "rate-limit.recovers-after-wait",
      "rate-limit.retry-after-valid",
    ]);
    expect(report?.createdResources.some((r) => r.type === "volume")).toBe(true);
    expect(run.files["report.md"]).toMatch(/## Created resources[\s\S]*\| volume \| `[0-9a-f-]{36}` \|/);
    const junit = run.files["junit.xml"] ?? "";
    expect(junit.match(/<testcase /g)?.length).toBe(report?.scenarios.length);
    expect(junit).toContain(
      `<skipped message="sends more than the platform's ${rateText()}: runs only with --allow-burst"/>`,
    );
    for (const text of [run.stdout, run.stderr, ...Object.values(run.files)]) {
      expect(text).not.toContain(KEY);
      expect(text).not.toContain(RESELLER_KEY);
    }
    const called = report?.scenarios.filter((s) => /^(schema|pagination|auth)\./.test(s.id)) ?? [];
    expect(called.filter((s) => s.evidence.length === 0).map((s) => s.id)).toEqual([]);
    expect(report?.scenarios.find((s) => s.id === "auth.wrong-token")?.evidence[0]).toMatchObject({
      method: "GET",
      path: "/iam/clients/me",
      status: 401,
    });
  });
});

describe.concurrent("plain vitest", () => {
  it("runs the scenarios against the embedded simulator with vitest and vitest.scenarios.config.ts alone", async () => {
    // What `vitest run --config vitest.scenarios.config.ts scenarios/20-auth` does (`pnpm
    // scenarios`), through vitest's Node API in this process: the config, its global setup
    // reading the flags from CONFORMANCE_ARGS (nothing provides a run context), the embedded
    // simulator it starts and the scenarios' own checks are the package's; vitest's command line
    // around the same call is vitest's. A process of its own cost 4 CPU-s, most of it vitest's start.
    const passed: string[] = [];
    const failed: string[] = [];
    const before = process.env.CONFORMANCE_ARGS;
    // Read by the global setup alone, which the CLI's runs here skip (they provide their context).
    process.env.CONFORMANCE_ARGS = "--only auth.*";
    const vitest = await createVitest(
      "test",
      {
        config: fileURLToPath(new URL("../vitest.scenarios.config.ts", import.meta.url)),
        root: fileURLToPath(new URL("..", import.meta.url)),
        watch: false,
        reporters: [
          {
            onTestCaseResult(test) {
              (test.result().state === "passed" ? passed : failed).push(test.fullName);
            },
          },
        ],
      },
      { logLevel: "silent" },
    );
    try {
      await vitest.start(["scenarios/20-auth"]);
    } finally {
      await vitest.close();
      if (before === undefined) delete process.env.CONFORMANCE_ARGS;
      else process.env.CONFORMANCE_ARGS = before;
    }
    expect(failed).toEqual([]);
    expect(passed).toHaveLength(7);
  });
});
