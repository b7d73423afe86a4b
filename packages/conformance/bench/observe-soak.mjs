// `pnpm bench:soak`: `conformance observe` as a user runs it (the built CLI, a process of its own)
// in front of the simulator, under a steady mix of traffic for SOAK_SECONDS: lists with the
// simulator's token, unknown ids (404), 256 KB POST bodies, and requests that each carry a token
// never seen before (a client that rotates its token per request). Reports observe's resident
// memory over the session (read from /proc, Linux) and the latency of each kind of request through
// it, with the same mix sent direct to the simulator in the same run as the baseline. A new token
// must cost no more than the hundredth: the latency of the first and last fresh-token requests is
// printed side by side. Exits non-zero only on a crash; a figure is reported, not judged.

import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { Agent, request } from "node:http";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { startSimulator } from "@platform-api/simulator";
import { authorization, loadModel, operationById, tokenScheme } from "@platform-api/spec";

const HOST = "127.0.0.1";
const SOAK_SECONDS = Number(process.env.SOAK_SECONDS ?? 60);
const RATE = Number(process.env.SOAK_RATE ?? 200); // requests a second, open loop
const BASELINE_SECONDS = Math.min(10, SOAK_SECONDS);
const REQUEST_TIMEOUT_MS = 30_000;
const CLI = new URL("../dist/cli.js", import.meta.url).pathname;
const MODEL = loadModel();
const regions = operationById(MODEL, "listRegions");
const project = operationById(MODEL, "listProjects");
const task = operationById(MODEL, "getTask");
const account = operationById(MODEL, "getCurrentClient");
if (regions.pagination?.style !== "offset") throw new Error("listRegions is no offset list in the spec");
const LIST = `${regions.path}?${regions.pagination.limitParam}=1`;
const UNKNOWN = task.path.replace(/\{[^}]+\}/, "00000000-0000-4000-8000-000000000000");
const BIG_BODY = Buffer.alloc(256 * 1024, "a");

const watchdog = setTimeout(
  () => {
    console.error("bench: still running long past its session, giving up");
    process.exit(1);
  },
  (SOAK_SECONDS + BASELINE_SECONDS + 120) * 1000,
);
watchdog.unref();

const agent = new Agent({ keepAlive: true, maxSockets: 64 });
let fresh = 0;
const freshToken = () => `${5000 + fresh}$soak-${(fresh++).toString(16).padStart(6, "0")}-${"f".repeat(24)}`;

/** The mix, one kind per slot of ten. */
function kindOf(n, apiKey) {
  const slot = n % 10;
  if (slot < 4) return { kind: "list", method: "GET", path: LIST, token: apiKey };
  if (slot < 5) return { kind: "projects", method: "GET", path: project.path, token: apiKey };
  if (slot < 6) return { kind: "unknown id (404)", method: "GET", path: UNKNOWN, token: apiKey };
  if (slot < 7)
    return { kind: "256 KB POST", method: "POST", path: account.path, token: apiKey, body: BIG_BODY };
  return { kind: "new token each", method: "GET", path: LIST, token: freshToken() };
}

function send(base, r) {
  const { hostname, port } = new URL(base);
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        agent,
        hostname,
        port,
        method: r.method,
        path: r.path,
        timeout: REQUEST_TIMEOUT_MS,
        headers: {
          authorization: authorization(tokenScheme(loadModel(), "APIKey"), r.token),
          "content-type": "application/json",
        },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve({ ms: performance.now() - started, status: res.statusCode }));
        res.on("error", () => resolve({ ms: performance.now() - started, status: "broken" }));
      },
    );
    req.on("timeout", () => req.destroy(new Error("timeout")));
    req.on("error", (e) => resolve({ ms: performance.now() - started, status: e.message }));
    req.end(r.body);
  });
}

/** Sends the mix at RATE a second for `seconds`; per kind, every latency in order. */
async function load(base, seconds, apiKey, onTick) {
  const byKind = new Map();
  const statuses = new Map();
  const pending = [];
  const total = Math.round(seconds * RATE);
  const start = performance.now();
  for (let n = 0; n < total; n++) {
    const due = start + (n * 1000) / RATE;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((d) => setTimeout(d, wait));
    const r = kindOf(n, apiKey);
    pending.push(
      send(base, r).then(({ ms, status }) => {
        if (!byKind.has(r.kind)) byKind.set(r.kind, []);
        byKind.get(r.kind).push(ms);
        statuses.set(status, (statuses.get(status) ?? 0) + 1);
      }),
    );
    if (n % RATE === 0) onTick?.();
  }
  await Promise.all(pending);
  return { byKind, statuses, seconds: (performance.now() - start) / 1000 };
}

const quantile = (values, q) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
};
const median = (values) => quantile(values, 0.5);
const ms = (n) => `${n.toFixed(1)} ms`;
const rssMb = (pid) => {
  const match = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : Number.NaN;
};

/** The built CLI's observe, listening on a free port; resolves with its URL once it says it. */
function startObserve(upstream, report) {
  const child = spawn(
    process.execPath,
    [CLI, "observe", "--upstream", upstream, "--listen", `${HOST}:0`, "--report", report],
    { env: { ...process.env, NO_COLOR: "1" }, stdio: ["ignore", "pipe", "pipe"] },
  );
  let out = "";
  child.stderr.on("data", (c) => {
    out += c;
  });
  return new Promise((resolve, reject) => {
    child.stdout.on("data", (c) => {
      out += c;
      const url = /Observing (http:\/\/\S+)/.exec(out)?.[1];
      if (url) resolve({ child, url, output: () => out });
    });
    child.on("exit", (code) => reject(new Error(`observe exited (${code}) before listening:\n${out}`)));
  });
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`machine: ${machine}`);
console.log(
  `mix: 40% list, 10% projects, 10% unknown id, 10% 256 KB POST, 30% a new token each; ${RATE}/s\n`,
);

const simulator = await startSimulator({ host: HOST, port: 0, env: {}, rateLimit: 0 });
const report = mkdtempSync(join(tmpdir(), "observe-soak-"));
try {
  const baseline = await load(simulator.url, BASELINE_SECONDS, simulator.apiKey);
  fresh = 0;
  const observe = await startObserve(simulator.url, report);
  const rss = [];
  const soak = await load(observe.url, SOAK_SECONDS, simulator.apiKey, () =>
    rss.push(rssMb(observe.child.pid)),
  );
  rss.push(rssMb(observe.child.pid));
  const exited = new Promise((d) => observe.child.on("exit", d));
  observe.child.kill("SIGINT");
  const code = await exited;

  console.log(`observe, ${soak.seconds.toFixed(0)} s, ${fresh} distinct tokens:`);
  const settled = rss.slice(Math.min(5, rss.length - 1));
  console.log(
    `  RSS: ${Math.min(...settled).toFixed(0)}–${Math.max(...settled).toFixed(0)} MB after the first 5 s (first sample ${rss[0].toFixed(0)} MB, last ${rss.at(-1).toFixed(0)} MB)`,
  );
  console.log(`  answers: ${[...soak.statuses].map(([s, n]) => `${n} × ${s}`).join(", ")}`);
  console.log(`  exit code after SIGINT: ${code} (0 conformant, 1 a must broken)\n`);
  console.log(
    `  ${"kind".padEnd(18)} ${"direct p50".padStart(11)} ${"observe p50".padStart(12)} ${"direct p99".padStart(11)} ${"observe p99".padStart(12)}`,
  );
  for (const [kind, list] of soak.byKind) {
    const base = baseline.byKind.get(kind) ?? [];
    console.log(
      `  ${kind.padEnd(18)} ${ms(median(base)).padStart(11)} ${ms(median(list)).padStart(12)} ${ms(quantile(base, 0.99)).padStart(11)} ${ms(quantile(list, 0.99)).padStart(12)}`,
    );
  }
  const tokens = soak.byKind.get("new token each") ?? [];
  const edge = Math.min(100, Math.floor(tokens.length / 2));
  console.log(
    `\n  a new token each: median of the first ${edge} ${ms(median(tokens.slice(0, edge)))}, of the last ${edge} ${ms(median(tokens.slice(-edge)))} (request ${tokens.length} of that kind)`,
  );
} finally {
  await simulator.close();
  agent.destroy();
  rmSync(report, { recursive: true, force: true });
}
