// `conformance fuzz` against hostile files and targets (issue #35): a replay file is refused unless
// every request is one of the spec's operations, before anything is sent; what a replay sends
// follows the run's rules (reads only without --allow-writes, ids mapped or the request skipped);
// no PUT goes out whose resource was not read first, and what was read is put back, also on an
// interrupt; a target that fails everything ends the run early; --baseline and --replay read
// regular files only, bounded. Every reproducer the suite prints for hostile values is run with bash
// in a scratch folder against loopback listeners: nothing runs, and nothing reaches another host.
// Whole runs against real (loopback) servers: only they show the files, the session's guards, the
// target and the reports fitting together. Small --only sets and --max-examples keep each short.

import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { promisify } from "node:util";
import { simulatorHints } from "@platform-api/simulator";
import { matchOperation, operationById } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/cli/options.js";
import { specModel } from "../src/facts/spec.js";
import { FUZZ_CHECKS, fuzzResultId } from "../src/fuzz/checks.js";
import { MAX_BODY_DEPTH } from "../src/fuzz/replay-file.js";
import { newRequest } from "../src/fuzz/request.js";
import { DOWN_OPERATIONS, OPERATION_FAILURE_LIMIT } from "../src/fuzz/session.js";
import { MAX_ANSWER_BYTES } from "../src/http/http.js";
import type { Finding } from "../src/shared/finding.js";
import { countingServer } from "./counting-server.js";
import {
  type Answer,
  type Defect,
  type Exchange,
  type FaultyTarget,
  startFaultyTarget,
} from "./faulty-target.js";
import { fuzz, scratch } from "./fuzz-run.js";
import { assertBuilt, CLI, RUN_TIMEOUT_MS, runEnv } from "./run-cli.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const op = (id: string) => operationById(model, id);
const noServerError = FUZZ_CHECKS.find((c) => c.id === "fuzz.no-server-error");
if (!noServerError) throw new Error("fuzz.no-server-error is not among FUZZ_CHECKS");
const serverError = {
  status: 500,
  headers: { "content-type": "application/json" },
  body: { detail: "boom" },
};

/** A finding of `operationId`'s no-server-error check, its request built as a run builds one. */
function finding(
  operationId: string,
  params: Record<string, string> = {},
  over: Partial<Finding["request"]> = {},
) {
  const request = { ...newRequest(op(operationId), params, []), ...over };
  return {
    id: fuzzResultId(noServerError as NonNullable<typeof noServerError>, operationId),
    check: "fuzz.no-server-error",
    operationId,
    severity: "must",
    phase: "coverage",
    seed: 1,
    problem: "answered 500",
    status: 500,
    request,
    curl: "",
  } as Finding;
}

const dir = scratch("hostile-");
let files = 0;
/** A report.json holding `findings` (anything: the file is the test's hostile input). */
function reportFile(findings: unknown, raw?: string): string {
  const file = join(dir, `report-${++files}.json`);
  writeFileSync(file, raw ?? JSON.stringify({ fuzz: { findings } }));
  return file;
}

const targets: FaultyTarget[] = [];
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});
/** A simulator behind a proxy that logs each request (method and path) and may plant a defect. */
async function logged(defect: Partial<Defect> = {}) {
  const seen: Exchange[] = [];
  const target = await startFaultyTarget({
    name: "logged",
    fails: [],
    ...defect,
    request: (ex, sim) => {
      seen.push({ ...ex, body: structuredClone(ex.body) });
      return defect.request?.(ex, sim);
    },
  });
  targets.push(target);
  const profileId = simulatorHints(target.sim.store, target.sim.apiKey).protectionProfileId;
  if (profileId === undefined) throw new Error("the simulator's client has no protection profile");
  const profilePath = op("getProtectionProfile").path.replace("{id}", String(profileId));
  const readProfile = async () => {
    const answer = await fetch(`${target.url}${profilePath}`, {
      headers: { authorization: `${tokenPrefix}${target.sim.apiKey}` },
    });
    return (await answer.json()) as { fields: { base_field: number; value: string }[] };
  };
  const operationOf = (ex: Exchange) => matchOperation(model, ex.method, ex.path)?.operation.operationId;
  return { target, seen, profileId, profilePath, readProfile, operationOf };
}
const values = (p: { fields: { base_field: number; value: string }[] }) =>
  p.fields.map((f) => [f.base_field, f.value]);

describe("a replay file is refused unless every request is one of the spec's operations", () => {
  const counting = countingServer();
  const listRegions = finding("listRegions");
  const deep = `{"name":${'{"a":'.repeat(200_000)}1${"}".repeat(200_000)}}`;
  const createVolume = finding("createVolume", { project_id: "1", region_id: "2" }, { body: { name: "v" } });
  const cases: [string, string, RegExp][] = [
    [
      "a method with a command",
      reportFile([{ ...listRegions, request: { ...listRegions.request, method: "GET $(touch PWNED)" } }]),
      /fuzz\.findings\[0\]\.request\.method is longer than 10 characters; allowed: a string \(the operation's method\)/,
    ],
    [
      "a method with ;",
      reportFile([
        listRegions,
        { ...listRegions, request: { ...listRegions.request, method: `GET;touch$${"{IFS}"}PWNED;` } },
      ]),
      /fuzz\.findings\[1\]\.request\.method/,
    ],
    [
      "TRACE",
      reportFile([{ ...listRegions, request: { ...listRegions.request, method: "TRACE" } }]),
      /request\.method is not listRegions's/,
    ],
    [
      "a path to another host",
      reportFile([{ ...listRegions, request: { ...listRegions.request, path: "@127.0.0.2:4698/steal" } }]),
      /fuzz\.findings\[0\]\.request\.path is not listRegions's; allowed: \//,
    ],
    [
      "a CRLF in the path",
      reportFile([
        {
          ...listRegions,
          request: { ...listRegions.request, path: `${listRegions.request.path}\r\nX-Evil: 1` },
        },
      ]),
      /request\.path is not listRegions's/,
    ],
    [
      "the simulator's reset",
      reportFile([
        { ...listRegions, request: { ...listRegions.request, method: "POST", path: "/_sim/reset" } },
      ]),
      /request\.method is not listRegions's/,
    ],
    [
      "an unknown operation",
      reportFile([{ ...listRegions, request: { ...listRegions.request, operationId: "deleteEverything" } }]),
      /request\.operationId names no operation of the spec; allowed: listTasks/,
    ],
    [
      "a header of its own",
      reportFile([
        { ...listRegions, request: { ...listRegions.request, auth: { header: "X-Evil", value: "1" } } },
      ]),
      /request\.auth is an object; allowed: "client" or "reseller"/,
    ],
    [
      "the other key",
      reportFile([{ ...listRegions, request: { ...listRegions.request, auth: "reseller" } }]),
      /request\.auth is not the key listRegions is called with; allowed: "client"/,
    ],
    [
      "__proto__ in the request",
      reportFile(
        undefined,
        JSON.stringify({
          fuzz: { findings: [{ ...listRegions, request: { ...listRegions.request } }] },
        }).replace('"auth":', '"__proto__":{"polluted":1},"auth":'),
      ),
      /request has a field "__proto__" that is not allowed/,
    ],
    [
      "__proto__ in the params",
      reportFile(
        undefined,
        JSON.stringify({ fuzz: { findings: [listRegions] } }).replace(
          '"params":{}',
          '"params":{"__proto__":"x"}',
        ),
      ),
      /request\.params does not name listRegions's path parameters; allowed: none/,
    ],
    [
      "no fromRun",
      reportFile([{ ...listRegions, request: { ...listRegions.request, fromRun: undefined } }]),
      /request has no fromRun/,
    ],
    [
      "a query as a string",
      reportFile([{ ...listRegions, request: { ...listRegions.request, query: "limit=1" } }]),
      /request\.query is a string; allowed: an array of at most/,
    ],
    [
      "a query pair of one",
      reportFile([{ ...listRegions, request: { ...listRegions.request, query: [["limit"]] } }]),
      /request\.query\[0\] is an array; allowed: a \[name, value\] pair of strings/,
    ],
    [
      "a body 200,000 deep",
      reportFile(
        undefined,
        JSON.stringify({ fuzz: { findings: [createVolume] } }).replace('{"name":"v"}', deep),
      ),
      new RegExp(`request\\.body nests deeper than ${MAX_BODY_DEPTH} levels|not JSON`),
    ],
    [
      "an id no result has",
      reportFile([{ ...listRegions, id: "zzz" }]),
      /fuzz\.findings\[0\]\.id names no result of the suite/,
    ],
    ["no findings", reportFile([]), /its fuzz run found nothing \(fuzz\.findings is empty\)/],
    ["no fuzz run", reportFile(undefined, JSON.stringify({ scenarios: [] })), /holds no fuzz findings/],
    [
      "a device that never ends",
      "/dev/zero",
      /--replay \/dev\/zero: is a device or socket, not a regular file/,
    ],
    ["a folder", dir, /is a folder, not a regular file/],
  ];

  it.each(cases)("%s: exit 2, naming the entry, before anything is sent", async (_, file, said) => {
    const before = counting.requests;
    const run = await fuzz({ replay: file, target: counting.url, projectId: 1, regionId: 2 });
    expect(run.exitCode, run.out).toBe(2);
    expect(run.out).toMatch(said);
    expect(run.out).not.toMatch(/curl|reproduce/);
    expect(counting.requests).toBe(before);
  });

  it("a pipe nobody writes to: refused at once, not waited on", async () => {
    const fifo = join(dir, "fifo");
    expect(spawnSync("mkfifo", [fifo]).status).toBe(0);
    const run = await fuzz({ replay: fifo, target: counting.url });
    expect(run.exitCode, run.out).toBe(2);
    expect(run.out).toMatch(/is a pipe, not a regular file/);
    const baseline = await fuzz({ baseline: fifo, target: counting.url });
    expect(baseline.exitCode, baseline.out).toBe(2);
    expect(baseline.out).toMatch(/--baseline .*fifo: is a pipe, not a regular file/);
    expect(counting.requests).toBe(0);
  });

  it("--baseline /dev/zero, and a baseline to write in a folder that does not exist: exit 2 before anything is sent", async () => {
    const zero = await fuzz({ baseline: "/dev/zero", target: counting.url });
    expect(zero.exitCode, zero.out).toBe(2);
    expect(zero.out).toMatch(/--baseline \/dev\/zero: is a device or socket, not a regular file/);
    const missing = join(dir, "no-such-folder", "b.json");
    const update = await fuzz({ baseline: missing, baselineUpdate: true, target: counting.url });
    expect(update.exitCode, update.out).toBe(2);
    expect(update.out).toMatch(/--baseline-update cannot write it: its folder .* is missing or not writable/);
    const only = await fuzz({ only: ["zzz*"], target: counting.url });
    expect(only.exitCode, only.out).toBe(2);
    expect(only.out).toMatch(/--only "zzz\*" matches no operation of the spec/);
    expect(counting.requests).toBe(0);
  });
});

describe.concurrent("what a replay sends follows the run's rules, not the file's", () => {
  /** A PUT of the profile as a finding, `id` holding `value` (the original run's own when fromRun). */
  const put = (value: string, fromRun: string[]) =>
    finding(
      "updateProtectionProfile",
      { id: value },
      { fromRun, body: { fields: [{ base_field: 1, value: "1" }] } },
    );
  const file = reportFile([
    finding("listRegions"),
    put("99999999", []),
    put("4211", ["id"]),
    finding(
      "createVolume",
      { project_id: "1", region_id: "2" },
      { fromRun: ["project_id", "region_id"], body: { name: "v", source: "new-volume", size: 1 } },
    ),
    finding("putStorageNotificationEvent", {}, { body: { name: "reaching_used_space" } }),
  ]);

  it("without --allow-writes only reads go out, each write skipped with a line", async () => {
    const { target, seen } = await logged();
    const run = await fuzz({ replay: file }, target);
    expect(run.exitCode, run.out).toBe(0);
    expect(
      seen.filter((ex) => ex.method !== "GET"),
      run.out,
    ).toEqual([]);
    expect(run.out).toMatch(
      /skipped fuzz\.no-server-error\.updateProtectionProfile: PUT may change something: pass --allow-writes/,
    );
    expect(run.out).toMatch(/skipped fuzz\.no-server-error\.createVolume: POST may change something/);
    expect(run.report.fuzz?.replay?.filter((r) => r.skipped !== undefined)).toHaveLength(4);
  });

  it("with --allow-writes ids are this target's or the request is skipped; a PUT's resource is read first and put back; what cannot be read back is never written", async () => {
    const { target, seen, profileId, profilePath, readProfile, operationOf } = await logged();
    const before = await readProfile();
    const run = await fuzz({ replay: file, allowWrites: true, protectionProfileId: profileId }, target);
    const writes = seen.filter((ex) => ex.method !== "GET");
    // The PUT of the file's own id is not sent; the one that held the run's own goes to this target's profile.
    expect(
      writes.filter((ex) => ex.method === "PUT").map((ex) => ex.path),
      run.out,
    ).toEqual([profilePath, profilePath]);
    expect(writes.some((ex) => operationOf(ex) === "putStorageNotificationEvent")).toBe(false);
    expect(run.out).toMatch(
      /skipped fuzz\.no-server-error\.updateProtectionProfile: its id holds a value of the original run's that this run cannot map/,
    );
    expect(run.out).toMatch(/putStorageNotificationEvent: PUT replaces what no GET of the spec reads back/);
    // Read before the first PUT, put back after it.
    const firstPut = seen.findIndex((ex) => ex.method === "PUT");
    expect(seen.slice(0, firstPut).some((ex) => ex.method === "GET" && ex.path === profilePath)).toBe(true);
    expect(run.report.fuzz?.restored).toEqual([
      { operationId: "updateProtectionProfile", path: profilePath, outcome: "put back" },
    ]);
    expect(values(await readProfile())).toEqual(values(before));
  });
});

describe.concurrent("no PUT goes out whose resource was not read first; what was read is put back", () => {
  it("a profile whose read answers 503: not one PUT is sent, and the run says why", async () => {
    const { target, seen, profileId, operationOf } = await logged({
      request: (ex: Exchange): Answer | undefined =>
        operationOf(ex) === "getProtectionProfile"
          ? { status: 503, headers: { "content-type": "application/json" }, body: { detail: "busy" } }
          : undefined,
    });
    const run = await fuzz(
      {
        only: ["updateProtectionProfile", "putStorageNotificationEvent"],
        allowWrites: true,
        protectionProfileId: profileId,
        phases: ["coverage", "fuzz"],
      },
      target,
    );
    expect(
      seen.filter((ex) => ex.method === "PUT"),
      run.out,
    ).toEqual([]);
    expect(run.out).toMatch(
      /not sent: PUT updateProtectionProfile: it could not be read first \(GET \S+ answered 503\)/,
    );
    expect(run.out).toMatch(
      /skipped putStorageNotificationEvent: PUT replaces what no GET of the spec reads back/,
    );
  });

  it("interrupted right after a PUT: exit 130, the profile put back, the report of what was sent written", async () => {
    const controller = new AbortController();
    const { target, profileId, readProfile, operationOf } = await logged({
      request: (ex: Exchange): Answer | undefined => {
        if (operationOf(ex) === "updateProtectionProfile") controller.abort("SIGINT");
        return undefined;
      },
    });
    const before = await readProfile();
    const run = await fuzz(
      { only: ["updateProtectionProfile"], allowWrites: true, protectionProfileId: profileId },
      target,
      { signal: controller.signal },
    );
    expect(run.exitCode, run.out).toBe(130);
    expect(run.out).toMatch(/stopped: interrupted \(SIGINT\)/);
    // What was sent failed nothing, but a run cut short is no verdict of conformance.
    expect(run.out).toMatch(/STOPPED EARLY {2}\d+ passed, 0 failed/);
    expect(values(await readProfile())).toEqual(values(before));
    const written = JSON.parse(readFileSync(join(run.reportDir ?? "", "report.json"), "utf8"));
    expect(written.fuzz.stopped).toMatch(/interrupted/);
    expect(written.fuzz.restored[0].outcome).toBe("put back");
    expect(written.fuzz.requests).toBeGreaterThan(0);
  });
});

describe.concurrent("a target that fails everything ends the run early", () => {
  // Not discovery's operations: the run must get past it to fuzz.
  const only = ["listTasks", "getTask", "listInstances", "listAiTasks", "listQuotaLimitRequests"];
  it.each([
    ["answers 500", (): Answer => serverError],
    ["drops every connection", (): Answer => ({ ...serverError, drop: true })],
  ] as const)("a target that %s: stopped once operations are given up on", async (_, answer) => {
    let failed = 0;
    const { target, operationOf } = await logged({
      request: (ex: Exchange): Answer | undefined => {
        if (!only.includes(operationOf(ex) ?? "")) return undefined;
        failed++;
        return answer();
      },
    });
    const run = await fuzz({ only, maxExamples: 25 }, target);
    expect(run.exitCode, run.out).toBe(1);
    expect(run.report.fuzz?.stopped, run.out).toMatch(
      /the target failed every request to 3 operations in a row/,
    );
    // Each request is tried again at most a few times by the HTTP layer (none after the stop).
    expect(failed).toBeLessThanOrEqual(DOWN_OPERATIONS * OPERATION_FAILURE_LIMIT * 4);
  });
});

describe("every reproducer printed for hostile values is safe to paste", () => {
  let elsewhere: Server;
  let elsewhereSeen = 0;
  beforeAll(async () => {
    // Where a hostile file would send the token: a listener on another loopback address.
    elsewhere = createServer((_req, res) => {
      elsewhereSeen++;
      res.end();
    });
    await new Promise<void>((done) => elsewhere.listen(0, "127.0.0.2", done));
  });
  afterAll(() => new Promise<void>((done) => elsewhere.close(() => done())));

  it("run with bash in a scratch folder: nothing runs, nothing reaches another host", async () => {
    const port = (elsewhere.address() as AddressInfo).port;
    const hostile = [
      "$(touch PWNED)",
      "`touch PWNED`",
      "'; touch PWNED; '",
      `@127.0.0.2:${port}/steal`,
      "a\nb",
    ];
    const failing = ["listTasks", "listInstances", "checkVirtualGpuClusterLimits"];
    const { target, seen, operationOf } = await logged({
      request: (ex: Exchange): Answer | undefined =>
        failing.includes(operationOf(ex) ?? "") ? serverError : undefined,
    });
    const file = reportFile([
      finding("listTasks", {}, { query: hostile.map((h) => ["task_type", h] as [string, string]) }),
      finding("listInstances", { project_id: hostile[3] as string, region_id: hostile[2] as string }),
      finding(
        "checkVirtualGpuClusterLimits",
        { project_id: "1", region_id: "2" },
        { fromRun: ["project_id", "region_id"], body: { flavor: hostile.join(" "), servers_count: 1 } },
      ),
    ]);
    const run = await fuzz({ replay: file, allowWrites: true }, target);
    expect(run.exitCode, run.out).toBe(1);
    const printed = run.out
      .split("\n")
      .filter((l) => l.includes("reproduce: "))
      .map((l) => l.replace(/^.*reproduce: /, ""));
    const reported = (run.report.fuzz?.findings ?? []).map((f) => f.curl);
    expect(printed).toHaveLength(failing.length);
    expect(reported).toHaveLength(failing.length);
    const folder = scratch("paste-");
    const sent = seen.length;
    // Side by side: each waits for a bash and a curl to start. Not spawnSync: the target answering
    // curl lives in this process.
    await Promise.all(
      [...printed, ...reported].map(async (line) => {
        const pasted = await promisify(execFile)("bash", ["-c", line], {
          cwd: folder,
          env: { PATH: process.env.PATH ?? "", [DEFAULTS.apiKeyEnv]: target.sim.apiKey },
          timeout: 60_000,
          encoding: "utf8",
        });
        expect(pasted.stdout.split("\n")[0], line).toMatch(/^HTTP\/1\.1 500/);
      }),
    );
    expect(readdirSync(folder)).toEqual([]);
    expect(existsSync(join(process.cwd(), "PWNED"))).toBe(false);
    expect(elsewhereSeen).toBe(0);
    // Each pasted line reached the target, as the operation it reproduces.
    const pasted = seen.slice(sent);
    expect(pasted.map((ex) => operationOf(ex)).sort()).toEqual([...failing, ...failing].sort());
  });
});

describe("Ctrl-C on the command line", () => {
  // A child process: only a real SIGINT to the built CLI shows its handler is installed (an
  // in-process run is told through an AbortSignal, above).
  it("mid-fuzz, right after a PUT: exit 130, the profile put back, the report written", async () => {
    assertBuilt();
    let child: ChildProcess | undefined;
    let signalled = false;
    const { target, profileId, readProfile, operationOf } = await logged({
      request: (ex: Exchange): Answer | undefined => {
        if (operationOf(ex) === "updateProtectionProfile" && !signalled) {
          signalled = true;
          child?.kill("SIGINT");
        }
        return undefined;
      },
    });
    const before = await readProfile();
    const report = scratch("sigint-");
    child = spawn(
      process.execPath,
      [
        CLI,
        "fuzz",
        "--target",
        target.url,
        "--allow-writes",
        "--protection-profile-id",
        String(profileId),
        "--only",
        "updateProtectionProfile",
        "--seed",
        "1",
        "--time-scale",
        "0.01",
        "--report",
        report,
      ],
      {
        env: runEnv({
          [DEFAULTS.apiKeyEnv]: target.sim.apiKey,
          [DEFAULTS.resellerApiKeyEnv]: target.sim.resellerApiKey,
        }),
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let output = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString();
    });
    const killer = setTimeout(() => child?.kill("SIGKILL"), RUN_TIMEOUT_MS);
    const code = await new Promise<number | null>((done) => child?.once("close", (c) => done(c)));
    clearTimeout(killer);
    expect(signalled, output).toBe(true);
    expect(code, output).toBe(130);
    expect(output).toMatch(/SIGINT: sending nothing more; putting back what was changed/);
    expect(output).toMatch(/put back: updateProtectionProfile/);
    expect(values(await readProfile())).toEqual(values(before));
    const written = JSON.parse(readFileSync(join(report, "report.json"), "utf8"));
    expect(written.fuzz.stopped).toBe("interrupted (SIGINT)");
  });
});

describe.concurrent("a one-off is not a defect: a finding is sent again before it is reported", () => {
  it("a request that answers 500 only the first times it is sent: flaky, with its count, exit 0", async () => {
    // Each distinct URL of the task list with a state answers 500 to its first two sends (the session's own retry
    // of a 5xx included), then what the simulator answers: a one-off, never a defect.
    const sends = new Map<string, number>();
    const { target, operationOf } = await logged({
      request: (ex: Exchange): Answer | undefined => {
        if (operationOf(ex) !== "listTasks") return undefined;
        const url = `${ex.path}?${ex.query}`;
        const n = (sends.get(url) ?? 0) + 1;
        sends.set(url, n);
        return n <= 2 && ex.query.has("state") ? serverError : undefined;
      },
    });
    const run = await fuzz({ only: ["listTasks"], phases: ["coverage"] }, target);
    const id = fuzzResultId(noServerError as NonNullable<typeof noServerError>, "listTasks");
    const found = run.report.fuzz?.findings.find((f) => f.id === id);
    expect(found?.tries, run.out).toEqual({ failed: 1, of: 3 });
    expect(run.report.scenarios.find((s) => s.id === id)?.status).toBe("flaky");
    expect(run.report.summary.flaky).toBeGreaterThan(0);
    expect(run.out).toMatch(
      new RegExp(`flaky ${id.replace(/\./g, "\\.")} \\(coverage\\): failed 1 of 3 tries`),
    );
    expect(run.out).not.toMatch(/reproduce: /);
    expect(run.exitCode, run.out).toBe(0);
    sends.clear();
    const strict = await fuzz({ only: ["listTasks"], phases: ["coverage"], failOnFlaky: true }, target);
    expect(strict.exitCode, strict.out).toBe(1);
  });

  it("a request that answers 500 every time: a finding that failed every try, exit 1", async () => {
    const { target, operationOf } = await logged({
      request: (ex: Exchange): Answer | undefined =>
        operationOf(ex) === "listTasks" && ex.query.has("state") ? serverError : undefined,
    });
    const run = await fuzz({ only: ["listTasks"], phases: ["coverage"] }, target);
    const id = fuzzResultId(noServerError as NonNullable<typeof noServerError>, "listTasks");
    expect(run.report.fuzz?.findings.find((f) => f.id === id)?.tries, run.out).toEqual({ failed: 3, of: 3 });
    expect(run.report.scenarios.find((s) => s.id === id)?.status).toBe("failed");
    expect(run.exitCode, run.out).toBe(1);
  });
});

describe("an answer larger than the suite reads", () => {
  it("is cut, and the run says how many bodies it did not judge", async () => {
    const big = " ".repeat(MAX_ANSWER_BYTES + 1024);
    const { target, operationOf } = await logged({
      request: (ex: Exchange): Answer | undefined =>
        operationOf(ex) === "listTasks"
          ? { status: 200, headers: { "content-type": "application/json" }, body: undefined, text: big }
          : undefined,
    });
    const run = await fuzz({ only: ["listTasks"], phases: ["fuzz"], maxExamples: 1 }, target);
    expect(run.report.fuzz?.cutAnswers, run.out).toBeGreaterThan(0);
    expect(run.out).toMatch(/answers? larger than [\d,]+ bytes: cut, their bodies not judged/);
  });
});
