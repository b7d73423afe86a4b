// Soak benchmark: does the simulator stay bounded and fast as writes accumulate? It starts the
// built simulator in a child process (rate limit off, tasks 10,000 times faster so they finish),
// then at each checkpoint — the start, then after every quarter of SOAK_WRITES create-volume
// POSTs — lets tasks settle, collects garbage in the server (--expose-gc), and measures the server's
// heap and RSS and the p50/p99 latency of a POST create-volume and a GET of a task (sequential
// requests on one connection). Last, SOAK_LARGE_NAMES volumes with a 900 kB name. Prints one table
// and the machine. Bounded in count and in time (SOAK_MAX_SECONDS); no goals, figures only.
//
//   node bench/soak.mjs                       (after `tsc -p tsconfig.build.json`)
//   SOAK_WRITES=5000 SOAK_SAMPLES=200 node bench/soak.mjs
//
// The server child is this same file run with --serve; it answers memory questions over IPC.

import { fork } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { authorization, loadModel, tokenScheme } from "@platform-api/spec";

// ---------------------------------------------------------------------------------------------
// The server child

async function serve() {
  const { startSimulator } = await import("../dist/index.js");
  const sim = await startSimulator({ port: 0, env: {}, rateLimit: 0, timeScale: 0.0001 });
  const size = (x) => (x === undefined ? undefined : (x.size ?? x.length));
  process.on("message", async (message) => {
    if (message === "stop") {
      await sim.close();
      process.exit(0);
    }
    if (message === "memory") {
      for (let i = 0; i < 3; i++) {
        globalThis.gc?.();
        await sleep(50);
      }
      const { heapUsed, rss } = process.memoryUsage();
      const store = sim.store;
      process.send?.({
        heapUsed,
        rss,
        // The store's own task map (private in TypeScript, read here for the figure only).
        tasks: size(store.tasks ?? store.world?.tasks),
        volumes: size(store.world?.volumes),
        gc: typeof globalThis.gc === "function",
      });
    }
  });
  process.send?.({ url: sim.url, apiKey: sim.apiKey });
}

// ---------------------------------------------------------------------------------------------
// The driver

async function main() {
  const { loadBundle } = await import("@platform-api/spec");
  const { createDefaultWorld, DEFAULT_CLIENT_ID } = await import("../dist/index.js");

  const WRITES = positive("SOAK_WRITES", 20_000);
  const SAMPLES = positive("SOAK_SAMPLES", 400);
  const LARGE_NAMES = positive("SOAK_LARGE_NAMES", 20, true);
  const MAX_SECONDS = positive("SOAK_MAX_SECONDS", 300);
  const CHUNK = 1_000;
  const CONNECTIONS = 16;
  const started = performance.now();
  const deadline = started + MAX_SECONDS * 1000;

  // The paths and the body come from the spec; the project and region from the default world.
  const doc = loadBundle();
  const find = (id) => {
    for (const [path, item] of Object.entries(doc.paths))
      for (const [method, op] of Object.entries(item))
        if (op?.operationId === id) return { path, method: method.toUpperCase(), op };
    throw new Error(`The spec has no operation ${id}`);
  };
  const create = find("createVolume");
  const getTask = find("getTask");
  const world = createDefaultWorld();
  const project = world.projects.find((p) => p.client_id === DEFAULT_CLIENT_ID && p.is_default);
  const region = world.regions.find((r) => r.state === "ACTIVE");
  const ref = (node) =>
    node?.$ref
      ? node.$ref
          .slice(2)
          .split("/")
          .reduce((at, key) => at[key], doc)
      : node;
  const examples = ref(create.op.requestBody).content["application/json"].examples;
  const body = ref(Object.values(examples)[0]).value;
  const volumePath = create.path.replace("{project_id}", project.id).replace("{region_id}", region.id);
  const taskPath = (id) => getTask.path.replace("{task_id}", id);

  const child = fork(fileURLToPath(import.meta.url), ["--serve"], {
    execArgv: ["--expose-gc"],
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const hardStop = setTimeout(
    () => {
      console.error(`soak: still running after ${MAX_SECONDS + 60} s; stopping.`);
      child.kill("SIGKILL");
      process.exit(2);
    },
    (MAX_SECONDS + 60) * 1000,
  );
  hardStop.unref();
  const ask = (question) =>
    new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer to ${question} within 60 s`)), 60_000);
      child.once("message", (answer) => {
        clearTimeout(timer);
        resolve(answer);
      });
      child.send(question);
    });
  const ready = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("simulator not ready within 60 s")), 60_000);
    child.once("message", (m) => {
      clearTimeout(timer);
      resolve(m);
    });
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  const { url, apiKey } = ready;
  const headers = {
    authorization: authorization(tokenScheme(loadModel(), "APIKey"), apiKey),
    "content-type": "application/json",
  };

  try {
    // Quotas out of the way, so that every write creates a volume (the simulator's own bounds apply).
    const quota = await fetch(`${url}/_sim/quotas/${DEFAULT_CLIENT_ID}/${region.id}`, {
      method: "PUT",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ volume_count_limit: 1_000_000_000, volume_size_limit: 1_000_000_000_000 }),
    });
    if (!quota.ok) throw new Error(`PUT /_sim/quotas answered ${quota.status}`);

    const rows = [];
    let written = 0;
    const statuses = new Map();
    const checkpoint = async (label, extra = {}) => {
      await sleep(200); // tasks finish (time scale 0.0001); the next request settles the store
      await fetch(`${url}${taskPath("00000000-0000-4000-8000-000000000000")}`, { headers });
      const memory = await ask("memory");
      const latency = await measureLatency();
      rows.push({ label, written, ...memory, ...latency, ...extra });
      print(rows.at(-1));
    };
    const measureLatency = async () => {
      const post = [];
      const get = [];
      let taskId;
      for (let i = 0; i < SAMPLES; i++) {
        const t0 = performance.now();
        const answer = await fetch(`${url}${volumePath}`, {
          method: "POST",
          headers,
          body: JSON.stringify(body),
        });
        const json = await answer.json();
        post.push(performance.now() - t0);
        if (answer.status !== 200)
          throw new Error(`POST ${volumePath} answered ${answer.status}: ${JSON.stringify(json)}`);
        taskId ??= json.tasks[0];
      }
      for (let i = 0; i < SAMPLES; i++) {
        const t0 = performance.now();
        const answer = await fetch(`${url}${taskPath(taskId)}`, { headers });
        await answer.arrayBuffer();
        get.push(performance.now() - t0);
        if (answer.status !== 200) throw new Error(`GET ${taskPath(taskId)} answered ${answer.status}`);
      }
      return { post: percentiles(post), get: percentiles(get) };
    };

    console.log(`machine: ${machine()}`);
    console.log(
      `soak: ${WRITES} create-volume writes (${CONNECTIONS} connections, in chunks of ${CHUNK}), ${SAMPLES} sequential samples per latency, ${LARGE_NAMES} volumes with a 900 kB name; at most ${MAX_SECONDS} s\n`,
    );
    console.log(header());
    await checkpoint("start");
    const marks = [1, 2, 3, 4].map((q) => Math.round((WRITES * q) / 4));
    let timedOut = false;
    for (const mark of marks) {
      const t0 = performance.now();
      const before = written;
      while (written < mark) {
        if (performance.now() > deadline) {
          timedOut = true;
          break;
        }
        const amount = Math.min(CHUNK, mark - written);
        await pool(amount, CONNECTIONS, async () => {
          const answer = await fetch(`${url}${volumePath}`, {
            method: "POST",
            headers,
            body: JSON.stringify(body),
          });
          await answer.arrayBuffer();
          statuses.set(answer.status, (statuses.get(answer.status) ?? 0) + 1);
        });
        written += amount;
      }
      const seconds = (performance.now() - t0) / 1000;
      await checkpoint(`after ${written}`, { writesPerSecond: (written - before) / seconds });
      if (timedOut) {
        console.log(`soak: stopped at ${written} writes, SOAK_MAX_SECONDS (${MAX_SECONDS}) reached`);
        break;
      }
    }
    if (LARGE_NAMES > 0 && !timedOut) {
      const large = new Map();
      for (let i = 0; i < LARGE_NAMES; i++) {
        const answer = await fetch(`${url}${volumePath}`, {
          method: "POST",
          headers,
          body: JSON.stringify({ ...body, name: `${i}`.padEnd(900_000, "n") }),
        });
        await answer.arrayBuffer();
        large.set(answer.status, (large.get(answer.status) ?? 0) + 1);
      }
      await checkpoint(`+${LARGE_NAMES} × 900 kB name`, {
        note: [...large].map(([s, n]) => `${s}×${n}`).join(" "),
      });
    }
    console.log(
      `\nwrite statuses: ${[...statuses].map(([s, n]) => `${s}×${n}`).join(", ")}; ${((performance.now() - started) / 1000).toFixed(0)} s in all`,
    );
    if (!rows[0]?.gc) console.log("(the server ran without --expose-gc: memory figures include garbage)");
  } finally {
    const exited = new Promise((resolve) => child.once("exit", resolve));
    if (child.connected) child.send("stop");
    await Promise.race([exited, sleep(10_000)]);
    child.kill();
  }
}

/** Runs `task` `count` times, at most `width` at once. */
async function pool(count, width, task) {
  let started = 0;
  const worker = async () => {
    while (started < count) {
      started++;
      await task();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, count) }, worker));
}

function positive(name, fallback, zeroAllowed = false) {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < (zeroAllowed ? 0 : 1))
    throw new Error(`${name} must be a whole number${zeroAllowed ? "" : " above 0"} (got ${raw})`);
  return n;
}

function percentiles(samples) {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: at(0.5), p99: at(0.99) };
}

function machine() {
  const cpu = cpus();
  return `${cpu.length} × ${cpu[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
}

const MB = (bytes) => (bytes / 2 ** 20).toFixed(1);
const ms = (n) => n.toFixed(2);

function header() {
  return [
    "checkpoint".padEnd(24),
    "tasks".padStart(7),
    "volumes".padStart(8),
    "heap MB".padStart(8),
    "RSS MB".padStart(7),
    "POST p50/p99 ms".padStart(16),
    "GET p50/p99 ms".padStart(15),
    "writes/s".padStart(9),
  ].join(" ");
}

function print(row) {
  console.log(
    [
      row.label.padEnd(24),
      String(row.tasks ?? "?").padStart(7),
      String(row.volumes ?? "?").padStart(8),
      MB(row.heapUsed).padStart(8),
      MB(row.rss).padStart(7),
      `${ms(row.post.p50)}/${ms(row.post.p99)}`.padStart(16),
      `${ms(row.get.p50)}/${ms(row.get.p99)}`.padStart(15),
      (row.writesPerSecond === undefined ? "" : row.writesPerSecond.toFixed(0)).padStart(9),
      row.note ?? "",
    ].join(" "),
  );
}

if (process.argv.includes("--serve")) await serve();
else await main();
