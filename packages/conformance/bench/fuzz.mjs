// `pnpm bench`: what `conformance fuzz` (issue #30) does per second and how soon it finds a defect
// no scenario looks for, against the embedded simulator on 127.0.0.1, measured in one run on this
// machine:
//
// 1. throughput: requests generated, sent and judged per second by the coverage and fuzz phases
//    (read-only, as fuzz runs by default), pacing off on both sides: the session's pacer at 0 and
//    the simulator's rate limit at 0. The CLI refuses a --rate-limit above the spec's rate, so the
//    run is built from fuzz's own pieces (createSession, planOperations, the phases), as runFuzz
//    builds it.
// 2. time to first finding: a thin proxy in front of the same simulator answers 500 to one valid
//    request no scenario sends (the task list filtered by its state's last documented value, read
//    from the spec model), and counts who sent it. Fuzz is timed from its start (discovery
//    included) to its first finding, pacing off and at the spec's own rate; the main run
//    (runConformance, at the spec's rate: the most the CLI allows) from its start to its first
//    failed or warned result, if any.
//
// The baseline is Schemathesis where it is installed; where it is not (no Debian package, no pip
// index here), the main run, measured in the same process. Exits non-zero only on a crash (an
// error, the watchdog): a figure is reported, not judged.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { Agent, createServer, request } from "node:http";
import { cpus, loadavg, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { stripVTControlCharacters } from "node:util";
import { startSimulator } from "@platform-api/simulator";
import {
  authorization,
  loadModel,
  matchOperation,
  operationById,
  requireParameter,
  tokenScheme,
} from "@platform-api/spec";
import fc from "fast-check";
import { runConformance } from "../dist/active/run.js";
import { DEFAULTS } from "../dist/cli/options.js";
import { prepareRun } from "../dist/discovery/prepare.js";
import { requestsPerSecond } from "../dist/facts/rate.js";
import { FUZZ_DEFAULTS } from "../dist/fuzz/options.js";
import { coveragePhase, fuzzPhase } from "../dist/fuzz/phases.js";
import { planOperations } from "../dist/fuzz/plan.js";
import { createSession } from "../dist/fuzz/session.js";
import { bounded } from "./bounded.mjs";

const HOST = "127.0.0.1";
const MODEL = loadModel();
const SEED = 42;
const MAX_EXAMPLES = FUZZ_DEFAULTS.maxExamples; // the CLI's default
const THROUGHPUT_ROUNDS = 7;
const WARMUP_ROUNDS = 3; // not counted: each round ran faster than the last until the third or so (the JIT)
const FIRST_FINDING_ROUNDS = 3;
const SEQUENTIAL_GETS = 500; // a round of the simulator alone, for scale
const TIME_SCALE = DEFAULTS.simulatorTimeScale; // as `fuzz` runs the embedded simulator
const UPSTREAM_TIMEOUT_MS = 60_000;
const DEADLINE_MS = 480_000;

// The planted defect: the task list asked for the tasks in its state enum's last value. The main
// run reads the task list, but never by that state (the proxy counts it to show it). Not the
// regions' largest page: discovery asks for it (src/discovery/prepare.ts reads the regions a page of the
// largest size at a time), as do the offset scenarios for every list with a maximum.
const TASKS = operationById(MODEL, "listTasks");
const STATE = requireParameter(TASKS, "state", "query");
const PLANTED_STATE = STATE.enum?.at(-1);
if (typeof PLANTED_STATE !== "string") throw new Error("listTasks' state lists no values in the spec");
const PLANTED_FINDING = `fuzz.no-server-error.${TASKS.operationId}`;
const PLANTED = `GET ${TASKS.path}?${STATE.name}=${PLANTED_STATE}`;

const { closers, run } = bounded(DEADLINE_MS);

const reports = mkdtempSync(join(tmpdir(), "fuzz-bench-"));
closers.push(() => rmSync(reports, { recursive: true, force: true }));
let reportCount = 0;

/** The run options a CLI user would get, at `rateLimit` (not checked here: 0 is "no pacing"). */
const optionsFor = (target, rateLimit) => ({
  ...DEFAULTS,
  target,
  rateLimit,
  timeScale: TIME_SCALE,
  only: [],
  report: join(reports, `run-${++reportCount}`),
});

/** The keys of the simulator, as the environment of a run against a URL carries them. */
const envOf = (sim) => ({
  [DEFAULTS.apiKeyEnv]: sim.apiKey,
  [DEFAULTS.resellerApiKeyEnv]: sim.resellerApiKey,
});

/** As runFuzz seeds its UUIDs (a random UUID names no resource), so the same seed sends the same requests. */
function uuids(seed) {
  const supply = fc.sample(fc.uuid({ version: 4 }), { seed, numRuns: 256 });
  let next = 0;
  return () => supply[next++ % supply.length];
}

/** Discovery as runFuzz runs it, at `rateLimit` requests a second (0: not paced). */
async function prepareFuzz(url, sim, rateLimit) {
  const prepared = await prepareRun(optionsFor(url, rateLimit), envOf(sim), () => {});
  closers.push(() => prepared.close());
  return prepared.context;
}

/**
 * A fuzz session and its phases' context as runFuzz makes them (read-only: the stateful phase is
 * skipped), from the library's pieces so that its pacing can be off. `sent` is told the status of
 * each request as it comes back (the session has no hook for it: its send is wrapped).
 */
function fuzzSession(run, sent) {
  const session = createSession(run, { seed: SEED });
  const send = session.send;
  session.send = async (req, phase) => {
    const result = await send(req, phase);
    sent(result.status);
    return result;
  };
  const uuid = uuids(SEED);
  const planned = planOperations(run, { only: [], uuid });
  const ctx = { run, session, planned, seed: SEED, maxExamples: MAX_EXAMPLES, uuid, said: () => {} };
  return { session, ctx };
}

/**
 * 1. Requests per second of each phase, pacing off, the same seed each round; each round also times
 * the simulator alone, so that drift in the machine's load touches all three alike.
 */
async function throughput(sim) {
  const run = await prepareFuzz(sim.url, sim, 0);
  if (run.rateLimit !== 0) throw new Error("the fuzz run is paced");
  const alone = simulatorAlone(sim);
  closers.push(() => alone.close());
  const rounds = { coverage: [], fuzz: [], alone: [] };
  const statuses = new Map();
  for (let round = -WARMUP_ROUNDS; round < THROUGHPUT_ROUNDS; round++) {
    for (const [phase, runPhase] of [
      ["coverage", coveragePhase],
      ["fuzz", fuzzPhase],
    ]) {
      let count = 0;
      const { ctx } = fuzzSession(run, (status) => {
        count++;
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      });
      const started = performance.now();
      await runPhase(ctx);
      const ms = performance.now() - started;
      if (round >= 0) rounds[phase].push({ rps: (count * 1000) / ms, count, ms });
    }
    const rps = await alone.round();
    if (round >= 0) rounds.alone.push({ rps, count: SEQUENTIAL_GETS });
  }
  return { rounds, statuses };
}

/** The simulator alone: rounds of sequential GETs of a one-item region page on a kept-alive connection. */
function simulatorAlone(sim) {
  const regions = operationById(MODEL, "listRegions");
  const path = `${regions.path}?${regions.pagination.limitParam}=1`;
  const agent = new Agent({ keepAlive: true, maxSockets: 1 });
  const { hostname, port } = new URL(sim.url);
  const get = () =>
    new Promise((resolve, reject) => {
      const req = request(
        {
          agent,
          hostname,
          port,
          path,
          headers: { Authorization: authorization(tokenScheme(loadModel(), "APIKey"), sim.apiKey) },
        },
        (res) => {
          res.resume();
          res.on("end", () =>
            res.statusCode === 200 ? resolve() : reject(new Error(`GET ${path} answered ${res.statusCode}`)),
          );
        },
      );
      req.on("error", reject);
      req.end();
    });
  return {
    async round() {
      const started = performance.now();
      for (let i = 0; i < SEQUENTIAL_GETS; i++) await get();
      return (SEQUENTIAL_GETS * 1000) / (performance.now() - started);
    },
    close: () => agent.destroy(),
  };
}

/**
 * The simulator behind a proxy that answers 500 to the planted request, counting every request and
 * the planted ones. The simulator's header passes: a run asks it for its hints, as it would.
 */
async function plantedDefect(sim) {
  const agent = new Agent({ keepAlive: true });
  const counts = { requests: 0, planted: 0 };
  const server = createServer((req, res) => {
    counts.requests++;
    const url = new URL(req.url ?? "/", sim.url);
    const operation = matchOperation(MODEL, req.method ?? "GET", url.pathname)?.operation;
    if (operation?.operationId === TASKS.operationId && url.searchParams.get(STATE.name) === PLANTED_STATE) {
      counts.planted++;
      req.resume();
      const body = JSON.stringify({ detail: "internal error" });
      res.writeHead(500, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
      res.end(body);
      return;
    }
    const headers = { ...req.headers };
    delete headers.host;
    const upstream = request(
      `${sim.url}${req.url}`,
      { method: req.method, headers, agent, timeout: UPSTREAM_TIMEOUT_MS },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on("timeout", () => upstream.destroy(new Error(`no answer within ${UPSTREAM_TIMEOUT_MS} ms`)));
    upstream.on("error", (error) => {
      if (res.headersSent) return res.destroy();
      res.writeHead(502, { "content-type": "text/plain" });
      res.end(`bench proxy: ${error.message}`);
    });
    req.pipe(upstream);
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, resolve);
  });
  closers.push(
    () =>
      new Promise((done) => {
        server.close(() => done());
        server.closeAllConnections();
        agent.destroy();
      }),
  );
  return { url: `http://${HOST}:${server.address().port}`, counts };
}

/** 2. A whole fuzz run (coverage, fuzz) through the planted defect: when it found what, and in all. */
async function fuzzToFirstFinding(defect, sim, rateLimit) {
  const before = { ...defect.counts };
  const started = performance.now();
  const run = await prepareFuzz(defect.url, sim, rateLimit);
  let sent = 0;
  let first;
  let planted;
  const { session, ctx } = fuzzSession(run, () => {
    sent++;
    const findings = session.findings();
    const at = { ms: performance.now() - started, requests: sent };
    if (!first && findings.length > 0) first = { ...at, id: findings[0].id };
    if (!planted && findings.some((f) => f.id === PLANTED_FINDING)) planted = at;
  });
  await coveragePhase(ctx);
  await fuzzPhase(ctx);
  const ms = performance.now() - started;
  const findings = session.findings();
  return {
    first,
    planted,
    ms,
    sent,
    findings: findings.map((f) => f.id),
    plantedSent: defect.counts.planted - before.planted,
    requests: defect.counts.requests - before.requests,
  };
}

/** The main run through the planted defect, timed to its first failed or warned result, if any. */
async function mainToFirstFinding(defect, sim) {
  const before = { ...defect.counts };
  const started = performance.now();
  let first;
  const result = await runConformance(optionsFor(defect.url, requestsPerSecond()), {
    env: envOf(sim),
    notice: () => {},
    write: (line) => {
      // A result's live line starts with its mark (src/report/reporter.ts): ✗ failed, ! warned.
      const mark = /^([✗!]) .*?\] (\S+)/.exec(stripVTControlCharacters(line));
      if (mark && !first) first = { ms: performance.now() - started, id: mark[2] };
    },
  });
  const ms = performance.now() - started;
  if (result.exitCode === 2 || !result.report)
    throw new Error(`the main run could not run (exit ${result.exitCode})`);
  const { summary } = result.report;
  return {
    first,
    ms,
    exitCode: result.exitCode,
    summary,
    plantedSent: defect.counts.planted - before.planted,
    requests: defect.counts.requests - before.requests,
  };
}

/** Whether Schemathesis can run here, and if not, one line on why. */
function schemathesis() {
  for (const command of ["schemathesis", "st"]) {
    const found = spawnSync(command, ["--version"], { encoding: "utf8", timeout: 20_000 });
    if (found.status === 0) return { installed: `${command} ${found.stdout.trim()}` };
  }
  const apt = spawnSync("apt-cache", ["policy", "schemathesis", "python3-schemathesis"], {
    encoding: "utf8",
    timeout: 20_000,
  });
  const debian =
    apt.status !== 0
      ? "apt-cache is not here"
      : /Candidate: (?!\(none\))/.test(apt.stdout)
        ? "Debian has a package of it: install it (apt-get install python3-schemathesis) to compare with it"
        : "Debian's package lists (apt-cache policy schemathesis python3-schemathesis) hold no package of it";
  return {
    why: `Schemathesis is not installed here (no schemathesis or st on PATH); ${debian}, and pip reaches no package index from this machine`,
  };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
/** One value when every round gave it (a fixed seed should), else each round's. */
const each = (values) => (new Set(values).size === 1 ? String(values[0]) : values.join(" / "));
const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(" ");

async function main() {
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, load ${load()} (1, 5, 15 min), Node ${process.version}`,
  );
  const baseline = schemathesis();
  console.log(
    baseline.installed
      ? `baseline: ${baseline.installed} is installed, but this bench does not drive it yet: compared with the main run`
      : `baseline: the main run. ${baseline.why}.`,
  );
  console.log("");

  const rate = requestsPerSecond();
  const sim = await startSimulator({ host: HOST, port: 0, env: {}, rateLimit: 0, timeScale: TIME_SCALE });
  closers.push(() => sim.close());

  const defect = await plantedDefect(sim);
  const { rounds, statuses } = await throughput(sim);
  const runs = { unpaced: [], paced: [], main: [] };
  for (let round = 0; round < FIRST_FINDING_ROUNDS; round++) {
    runs.unpaced.push(await fuzzToFirstFinding(defect, sim, 0));
    runs.paced.push(await fuzzToFirstFinding(defect, sim, rate));
    runs.main.push(await mainToFirstFinding(defect, sim));
  }

  console.log(
    `1. fuzz throughput against the simulator (its rate limit off), pacing off, read-only, seed ${SEED}, ${MAX_EXAMPLES} examples per operation: ${THROUGHPUT_ROUNDS} rounds after ${WARMUP_ROUNDS} not counted, medians`,
  );
  // The main run's rate: every request it sent (discovery included) over its whole time.
  const mainRps = median(runs.main.map((r) => (r.requests * 1000) / r.ms));
  const simulatorAlone = median(rounds.alone.map((x) => x.rps));
  for (const phase of ["coverage", "fuzz"]) {
    const r = rounds[phase];
    const rps = median(r.map((x) => x.rps));
    console.log(
      `   ${phase.padEnd(9)} ${rps.toFixed(0).padStart(6)} req/s   (${r[0].count} requests a round; ${r.map((x) => x.rps.toFixed(0)).join(" / ")})   ${(rps / mainRps).toFixed(1)}× the main run, ${(rps / simulatorAlone).toFixed(2)}× the simulator alone`,
    );
  }
  const other = [...statuses].filter(([status]) => status === null || status === 429 || status >= 500);
  console.log(
    `   main run  ${mainRps.toFixed(0).padStart(6)} req/s   (${runs.main[0].requests} requests in ${seconds(runs.main[0].ms)}, paced at the spec's ${rate} requests/s: the most the CLI allows)`,
  );
  console.log(
    `   simulator alone ${simulatorAlone.toFixed(0)} req/s (${SEQUENTIAL_GETS} sequential GETs of a one-region page a round, nothing generated or judged; ${rounds.alone.map((x) => x.rps.toFixed(0)).join(" / ")})`,
  );
  console.log(
    `   fuzz met: ${other.length === 0 ? "no 429, no 5xx, no missing answer" : other.map(([s, n]) => `${n} × ${s ?? "no answer"}`).join(", ")}\n`,
  );

  console.log(
    `2. time to first finding: a 500 to ${PLANTED} (a documented value no scenario asks for), ${FIRST_FINDING_ROUNDS} rounds each, medians; the clock starts before discovery`,
  );
  const mainFound = runs.main.filter((r) => r.first);
  const mainFirst = mainFound.length > 0 ? median(mainFound.map((r) => r.first.ms)) : undefined;
  const mainWhole = median(runs.main.map((r) => r.ms));
  for (const [label, list] of [
    ["fuzz, pacing off", runs.unpaced],
    [`fuzz at ${rate} requests/s`, runs.paced],
  ]) {
    const found = list.filter((r) => r.planted);
    const at = found.length > 0 ? median(found.map((r) => r.planted.ms)) : undefined;
    const firsts = list.filter((r) => r.first);
    console.log(
      `   ${label.padEnd(24)} planted defect found in ${found.length} of ${list.length} runs${at === undefined ? "" : `, at ${seconds(at)} (request ${each(found.map((r) => r.planted.requests))})`}; first finding ${firsts.length === 0 ? "none" : `${each(firsts.map((r) => r.first.id))} at ${seconds(median(firsts.map((r) => r.first.ms)))}`}`,
    );
    console.log(
      `   ${"".padEnd(24)} whole run ${seconds(median(list.map((r) => r.ms)))}, ${each(list.map((r) => r.sent))} requests, findings: ${each(list.map((r) => r.findings.join(", ") || "none"))}; the planted request sent ${each(list.map((r) => r.plantedSent))}×`,
    );
    if (at !== undefined)
      console.log(
        `   ${"".padEnd(24)} ${mainFirst === undefined ? `the main run never finds it: found in ${(at / mainWhole).toFixed(3)}× the main run's whole time` : `${(at / mainFirst).toFixed(3)}× the main run's time to first finding`}`,
      );
  }
  console.log(
    `   (${TASKS.operationId} is operation ${MODEL.operations.indexOf(TASKS) + 1} of the spec's ${MODEL.operations.length}, and fuzz calls them in the spec's order: a defect behind a later one waits longer, up to the whole coverage phase, ${rounds.coverage[0].count} requests)`,
  );
  const m = runs.main[0];
  console.log(
    `   ${"main run".padEnd(24)} ${mainFirst === undefined ? "no finding" : `first finding ${each(mainFound.map((r) => r.first.id))} at ${seconds(mainFirst)} in ${mainFound.length} of ${runs.main.length} runs`}; whole run ${seconds(mainWhole)} (${runs.main.map((r) => seconds(r.ms)).join(" / ")})`,
  );
  console.log(
    `   ${"".padEnd(24)} ${each(runs.main.map((r) => r.requests))} requests; exit ${each(runs.main.map((r) => r.exitCode))}: ${m.summary.passed} passed, ${m.summary.failed} failed, ${m.summary.warned} warned, ${m.summary.skipped} skipped; the planted request sent ${each(runs.main.map((r) => r.plantedSent))}×`,
  );
  console.log(`\nload at the end: ${load()}`);
}

await run(main);
