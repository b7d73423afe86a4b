// Evidence that is the failure's own, and a one-off told from a defect (issue #36). Live runs:
// which exchange a result failed on, and whether a 5xx repeats when its request is sent again,
// come out of the run itself (its HTTP layer, drivers, judge and reporter together); no recording
// holds what a re-send would answer. The runs go through the CLI's path in this process (its flag
// parser, then runConformance: test/run-in-process.ts, no run host to start), all three side by
// side: each mostly waits on its own pacing, and the pauses before a re-send are the time
// scale's (--time-scale 0.01: 10 ms, not the seed's 1 s).
// The CLI's own process is cli.test.ts's.

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { embeddedHints } from "../src/discovery/target.js";
import { type Exchange, type FaultyTarget, startFaultyTarget } from "./faulty-target.js";
import type { CliRun } from "./run-cli.js";
import { runInProcess } from "./run-in-process.js";
import { tokenPrefix } from "./token-prefix.js";

/** A run's flags against a faulty target: every story runs (the hints a live user would pass). */
function argsFor(target: FaultyTarget): string[] {
  const hints = embeddedHints(target.sim);
  return [
    "--target",
    target.url,
    "--allow-writes",
    "--time-scale",
    "0.01",
    "--protection-profile-id",
    String(hints.protectionProfileId),
    "--gpu-flavor",
    String(hints.gpuFlavor),
  ];
}

/** Every failed, warned or flaky result names the exchange it failed on, and that exchange is the one its reason names. */
function expectOwnEvidence(run: CliRun) {
  const shown = (run.report?.scenarios ?? []).filter((s) => ["failed", "warned", "flaky"].includes(s.status));
  for (const s of shown) {
    expect(s.failedOn, `${s.id}: failedOn`).toBeDefined();
    expect(s.failedOn?.length, `${s.id}: failedOn`).toBeGreaterThan(0);
    for (const i of s.failedOn ?? []) {
      const e = s.evidence[i];
      expect(e, `${s.id}: evidence[${i}]`).toBeDefined();
      if (!e) continue;
      // The reason quotes the request as sent ("GET /path?query answered 500").
      expect(s.reason ?? "", `${s.id}: its reason names ${e.path}`).toContain(e.path.split("?")[0]);
      expect(s.reason ?? "", `${s.id}: its reason names ${e.status}`).toContain(
        String(e.status ?? "no answer"),
      );
    }
  }
  return shown;
}

/**
 * Chosen requests answered 500 on their first `n` tries, then passed to the simulator: a one-off
 * the HTTP layer's own retries do not outlast, deterministic where `--faults` draws at random.
 */
function firstTries(rules: { match: (e: Exchange) => boolean; n: number }[]) {
  const seen = new Map<string, number>();
  return (e: Exchange) => {
    const rule = rules.find((r) => r.match(e));
    if (!rule) return undefined;
    const key = `${e.method} ${e.path}?${e.query} ${e.headers.authorization ?? ""} ${JSON.stringify(e.body)}`;
    const tries = (seen.get(key) ?? 0) + 1;
    seen.set(key, tries);
    if (tries > rule.n) return undefined;
    return { status: 500, headers: {}, body: { message: "a one-off" } };
  };
}

const ONE_OFFS = [
  // A driver's walk, past the HTTP layer's own retries (a GET is sent four times).
  {
    match: (e: Exchange) =>
      e.path === "/cloud/reseller/v1/limits_request" && e.query.get("client_id") === "300113",
    n: 4,
  },
  // A story's POST (never retried by the HTTP layer): only that story asks for 3 servers. Its
  // first re-send fails too: a one-off may outlast one try (CONFIRM_TRIES sends it again more).
  {
    match: (e: Exchange) =>
      e.method === "POST" &&
      e.path.endsWith("/check_limits") &&
      (e.body as { servers_count?: number } | undefined)?.servers_count === 3,
    n: 2,
  },
  // The missing-auth driver's request, judged by a rule.
  { match: (e: Exchange) => e.path === "/iam/clients/me" && e.headers.authorization === undefined, n: 4 },
];

/**
 * Every result fed by the requests ONE_OFFS answer 500 (the reseller walk's, the story's, the
 * missing-auth driver's): what the plain run's assertions read, and all it runs. That nothing a
 * one-off never touched is failed is the whole run's below (30 % of 500s).
 */
const ONE_OFF_RESULTS = ["*.listQuotaLimitRequests", "check-limits.*", "auth.missing-header.*"];
/**
 * The missing-auth driver's results, all the lasting run runs: the lasting 500 is one of them, and
 * the driver's other one-off makes one flaky beside it (what that run's assertions read).
 */
const MISSING_AUTH = ["auth.missing-header.*"];
const onlyFlags = (globs: string[]) => globs.flatMap((glob) => ["--only", glob]);

/** What ONE_OFFS make flaky: one result of each of their requests. */
const FLAKY = [
  "auth.missing-header.getCurrentClient",
  "check-limits.requested-grows-with-servers",
  "pagination.offset.count-is-total.listQuotaLimitRequests",
];

describe("a target whose 500s do not repeat, and one whose 500 does", () => {
  let oneOff: FaultyTarget;
  let lasting: FaultyTarget;
  let runs: { plain: CliRun; lasting: CliRun };
  beforeAll(async () => {
    oneOff = await startFaultyTarget({ name: "one-off 500s", fails: [], request: firstTries(ONE_OFFS) });
    const oneOffs = firstTries(ONE_OFFS);
    lasting = await startFaultyTarget({
      name: "one-off and lasting 500s",
      fails: ["auth.missing-header.listTasks"],
      request: (e) =>
        e.path === "/cloud/v1/tasks" && e.headers.authorization === undefined
          ? { status: 500, headers: {}, body: { message: "always" } }
          : oneOffs(e),
    });
    const env = (t: FaultyTarget) => ({
      GCORE_API_KEY: t.sim.apiKey,
      GCORE_RESELLER_API_KEY: t.sim.resellerApiKey,
    });
    const [plain, lastingRun] = await Promise.all([
      runInProcess([...argsFor(oneOff), ...onlyFlags(ONE_OFF_RESULTS)], env(oneOff)),
      runInProcess([...argsFor(lasting), ...onlyFlags(MISSING_AUTH)], env(lasting)),
    ]);
    runs = { plain, lasting: lastingRun };
  });
  afterAll(async () => {
    await Promise.all([oneOff?.close(), lasting?.close()]);
  });

  const byStatus = (run: CliRun, status: string) =>
    (run.report?.scenarios ?? []).filter((s) => s.status === status).map((s) => s.id);

  it("reports the 500s that did not repeat as flaky, with both exchanges", () => {
    const { plain } = runs;
    expect(plain.report, plain.stderr).toBeDefined();
    expect(byStatus(plain, "failed")).toEqual([]);
    const flaky = byStatus(plain, "flaky");
    expect(flaky).toEqual(expect.arrayContaining(FLAKY));
    expect(plain.report?.summary.flaky).toBe(flaky.length);
    for (const s of expectOwnEvidence(plain).filter((x) => x.status === "flaky")) {
      const { retriedOn } = s.flaky ?? { retriedOn: [] };
      // Shown with both exchanges: the 5xx, and the answer its request got when sent again.
      expect(retriedOn.length, s.id).toBeGreaterThan(0);
      for (const i of retriedOn) expect(s.evidence[i]?.status, s.id).not.toBe(500);
    }
    expect(plain.stdout).toMatch(/CONFORMANT.*\d+ flaky/);
    expect(plain.files["report.md"]).toMatch(/flaky/i);
    expect(plain.files["report.html"]).toMatch(/flaky/i);
  });

  it("exits 0 on flaky results alone, 1 with --fail-on-flaky", async () => {
    expect(runs.plain.code, runs.plain.stdout).toBe(0);
    // The 30 % run, with --fail-on-flaky: the same one-offs make FLAKY flaky there too, and it
    // fails nothing (its own test below).
    const { run } = await random;
    expect(byStatus(run, "failed"), run.stdout).toEqual([]);
    expect(byStatus(run, "flaky"), run.stdout).toEqual(expect.arrayContaining(FLAKY));
    expect(run.code, run.stdout).toBe(1);
  });

  it("fails the 500 that repeats", () => {
    expect(byStatus(runs.lasting, "failed")).toEqual(["auth.missing-header.listTasks"]);
    expect(runs.lasting.code).toBe(1);
    expectOwnEvidence(runs.lasting);
  });

  it("gives every failed or flaky result a curl command of the request it failed on, the token as its variable", () => {
    for (const run of [runs.plain, runs.lasting]) {
      const shown = expectOwnEvidence(run);
      expect(shown.length).toBeGreaterThan(0);
      for (const s of shown) {
        const on = s.evidence[s.failedOn?.[0] ?? -1];
        expect(s.curl, s.id).toMatch(/^curl /);
        expect(s.curl, s.id).toContain(on?.path);
        for (const key of [lasting.sim.apiKey, lasting.sim.resellerApiKey]) expect(s.curl).not.toContain(key);
      }
      for (const file of ["report.md", "report.html"]) expect(run.files[file], file).toContain("curl -sS");
    }
    const walk = runs.plain.report?.scenarios.find(
      (s) => s.id === "pagination.offset.count-is-total.listQuotaLimitRequests",
    );
    expect(walk?.curl).toContain(`"Authorization: ${tokenPrefix}$GCORE_RESELLER_API_KEY"`);
    // The copy button is the page's own script's (its CSP allows no other).
    expect(runs.plain.files["report.html"]).toMatch(/<button type="button" class="copy"/);
  });

  it("groups results by the answer they failed on", () => {
    // The one 500 of the reseller walk stops the offset-list driver: every result it feeds.
    expect(runs.plain.stdout).toMatch(
      /\d+ results failed on one answer: GET \/cloud\/reseller\/v1\/limits_request\?client_id=300113\S* 500/,
    );
    expect(runs.plain.files["report.md"]).toMatch(/results failed on one answer/);
    expect(runs.plain.files["report.html"]).toMatch(/results failed on one answer/);
  });
});

/**
 * The run against a target that answers 30 % of requests 500, started beside the others. Its
 * simulator draws them at random; the one-offs (ONE_OFFS) come on top, so that some results are
 * flaky whatever it draws: with --fail-on-flaky, the run's exit says whether flaky results alone
 * turn it to 1 (a run of its own cost 1.3 CPU-s).
 */
async function thirtyPercent(): Promise<{ target: FaultyTarget; run: CliRun }> {
  const target = await startFaultyTarget({
    name: "500:0.3",
    fails: [],
    simulator: { faults: "500:0.3" },
    request: firstTries(ONE_OFFS),
  });
  const run = await runInProcess([...argsFor(target), "--fail-on-flaky"], {
    GCORE_API_KEY: target.sim.apiKey,
    GCORE_RESELLER_API_KEY: target.sim.resellerApiKey,
  });
  return { target, run };
}
let random: ReturnType<typeof thirtyPercent>;
beforeAll(() => {
  random = thirtyPercent();
});
afterAll(async () => (await random)?.target.close());

describe("a run against a target with injected 500s (30 %)", () => {
  it("points every failure at its own exchange, which carries the status and path its reason names", async () => {
    const { run } = await random;
    expect(run.report, run.stderr).toBeDefined();
    expectOwnEvidence(run);
    // The target answers no request 500 every time: nothing is a defect, what failed once is flaky.
    expect(
      run.report?.scenarios.filter((s) => s.status === "failed").map((s) => `${s.id}: ${s.reason}`),
    ).toEqual([]);
  });
});
