// `pnpm bench`: what the observing proxy of `conformance observe` adds to a client's requests —
// per-request latency and throughput of GET /cloud/v1/regions?limit=1 direct and through
// startObserving (proxy + judge), against a trivial node:http upstream (the proxy's own cost) and
// against the simulator (realism), measured in one run on this machine, all on 127.0.0.1.
//
// Everything runs in this one process (client, proxy, judge, upstream share one event loop), so
// every CPU cost on the way counts, and the throughput through the proxy is a lower bound.
// The trivial upstream answers the very bytes the simulator answered, so the judge has the same
// work behind either upstream. Exits non-zero only on a crash (an error, a non-200 answer, the
// watchdog): a goal missed is reported, not failed.

import { Agent, createServer, request } from "node:http";
import { cpus, totalmem } from "node:os";
import { startSimulator } from "@platform-api/simulator";
import { authorization, loadModel, operationById, tokenScheme } from "@platform-api/spec";
import { startObserving } from "../dist/traffic/commands.js";
import { startProxy } from "../dist/traffic/proxy.js";
import { bounded } from "./bounded.mjs";

const HOST = "127.0.0.1";
const MODEL = loadModel();
// A one-item page of the region list, by the spec's path and limit name.
const REGIONS = operationById(MODEL, "listRegions");
if (REGIONS.pagination?.style !== "offset") throw new Error("listRegions is no offset list in the spec");
const PATH = `${REGIONS.path}?${REGIONS.pagination.limitParam}=1`;
const WARMUP = 500; // requests per target before the rounds
const ROUNDS = 7;
const PER_ROUND = 300; // sequential requests per target per round
const LOOPS = 8; // concurrent loops of the throughput phase
const THROUGHPUT_SECONDS = 2; // per target, in interleaved slices
const SLICES = 4;
const REQUEST_TIMEOUT_MS = 10_000;
const DEADLINE_MS = 180_000;
const ADDED_MEDIAN_GOAL_MS = 1;

const { closers, run } = bounded(DEADLINE_MS);

const agent = new Agent({ keepAlive: true, maxSockets: LOOPS });
// Destroyed last: the closers run in reverse order.
closers.push(() => agent.destroy());

/** A target the client calls: a base URL and the headers it sends. */
function target(name, url, headers) {
  const { hostname, port } = new URL(url);
  return { name, hostname, port: Number(port), headers };
}

/** One GET; resolves with the answer's status and body once it is whole. */
function get(t) {
  return new Promise((resolve, reject) => {
    const req = request(
      {
        agent,
        hostname: t.hostname,
        port: t.port,
        path: PATH,
        headers: t.headers,
        timeout: REQUEST_TIMEOUT_MS,
      },
      (res) => {
        const chunks = [];
        res.on("data", (chunk) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode, body: Buffer.concat(chunks) }));
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${t.name}: no answer within ${REQUEST_TIMEOUT_MS} ms`)));
    req.on("error", reject);
    req.end();
  });
}

async function getOk(t) {
  const answer = await get(t);
  if (answer.status !== 200)
    throw new Error(
      `${t.name}: GET ${PATH} answered ${answer.status}: ${answer.body.toString().slice(0, 200)}`,
    );
  return answer;
}

/** Milliseconds of one whole request (sent to last body byte read). */
async function timed(t) {
  const started = performance.now();
  await getOk(t);
  return performance.now() - started;
}

/** Nearest-rank quantile of an ascending list. */
const quantile = (sorted, q) => sorted[Math.max(0, Math.ceil(q * sorted.length) - 1)];

function startTrivialUpstream(body, contentType) {
  const server = createServer((req, res) => {
    req.resume();
    res.writeHead(200, { "content-type": contentType, "content-length": body.length });
    res.end(body);
  });
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, HOST, () =>
      resolve({
        url: `http://${HOST}:${server.address().port}`,
        close: () =>
          new Promise((done) => {
            server.close(() => done());
            server.closeAllConnections();
          }),
      }),
    );
  });
}

/** Direct, the bare proxy (judge off) and startObserving (judge on) in front of one upstream. */
async function targetsFor(label, upstreamUrl, headers) {
  const bare = await startProxy({ upstream: upstreamUrl, host: HOST, port: 0, onExchange: () => {} });
  closers.push(() => bare.close());
  const observing = await startObserving({ upstream: upstreamUrl, host: HOST, port: 0, env: {} });
  closers.push(() => observing.stop());
  const direct = target(`${label} direct`, upstreamUrl, headers);
  const proxyOnly = target(`${label} proxy alone`, bare.url, headers);
  const observed = target(`${label} through observe`, observing.url, headers);
  // The proxy passes the answer byte for byte: a benchmark of a proxy that alters it measures nothing.
  const expected = (await getOk(direct)).body;
  for (const t of [proxyOnly, observed])
    if (!(await getOk(t)).body.equals(expected)) throw new Error(`${t.name}: the body differs from direct`);
  return { label, direct, proxyOnly, observed, judge: observing.judge };
}

/** Sequential latency, the targets' rounds interleaved (the order rotating) to cancel drift. */
async function latency(targets) {
  for (const t of targets) for (let i = 0; i < WARMUP; i++) await timed(t);
  const samples = new Map(targets.map((t) => [t, []]));
  for (let round = 0; round < ROUNDS; round++) {
    const order = targets.map((_, i) => targets[(i + round) % targets.length]);
    for (const t of order) {
      const list = samples.get(t);
      for (let i = 0; i < PER_ROUND; i++) list.push(await timed(t));
    }
  }
  return new Map(
    [...samples].map(([t, list]) => {
      const sorted = list.sort((a, b) => a - b);
      return [t, { median: quantile(sorted, 0.5), p99: quantile(sorted, 0.99), n: sorted.length }];
    }),
  );
}

/** Requests per second with LOOPS concurrent loops, the targets' slices interleaved. */
async function throughput(targets) {
  const totals = new Map(targets.map((t) => [t, { count: 0, ms: 0 }]));
  const sliceMs = (THROUGHPUT_SECONDS * 1000) / SLICES;
  for (let slice = 0; slice < SLICES; slice++) {
    const order = slice % 2 === 0 ? targets : [...targets].reverse();
    for (const t of order) {
      const total = totals.get(t);
      const started = performance.now();
      const end = started + sliceMs;
      await Promise.all(
        Array.from({ length: LOOPS }, async () => {
          while (performance.now() < end) {
            await getOk(t);
            total.count++;
          }
        }),
      );
      total.ms += performance.now() - started;
    }
  }
  return new Map([...totals].map(([t, { count, ms }]) => [t, { rps: (count * 1000) / ms, count }]));
}

const ms = (x) => `${x.toFixed(3)} ms`;
const signed = (x) => `${x >= 0 ? "+" : "−"}${Math.abs(x).toFixed(3)} ms`;
const verdict = (met) => (met ? "met" : "NOT met");

async function main() {
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
  console.log(`machine: ${machine}\n`);

  const { limit, periodSeconds } = MODEL.conventions.requestRate;
  const platformRate = limit / periodSeconds;

  const simulator = await startSimulator({ host: HOST, port: 0, env: {}, rateLimit: 0 });
  closers.push(() => simulator.close());
  const headers = { Authorization: authorization(tokenScheme(loadModel(), "APIKey"), simulator.apiKey) };
  const sample = await get(target("simulator", simulator.url, headers));
  if (sample.status !== 200) throw new Error(`simulator: GET ${PATH} answered ${sample.status}`);
  const trivial = await startTrivialUpstream(sample.body, "application/json; charset=utf-8");
  closers.push(() => trivial.close());

  const upstreams = [
    await targetsFor(`trivial node:http (fixed ${sample.body.length}-byte JSON)`, trivial.url, headers),
    await targetsFor("simulator (rate limit off)", simulator.url, headers),
  ];

  console.log(
    `1. latency of GET ${PATH}, sequential on a keep-alive connection: ${ROUNDS} interleaved rounds × ${PER_ROUND} requests per target after ${WARMUP} warm-up`,
  );
  for (const u of upstreams) {
    const l = await latency([u.direct, u.proxyOnly, u.observed]);
    const [d, p, o] = [l.get(u.direct), l.get(u.proxyOnly), l.get(u.observed)];
    const added = { median: o.median - d.median, p99: o.p99 - d.p99 };
    console.log(`   upstream: ${u.label}`);
    console.log(`   ${"".padEnd(34)} ${"median".padStart(10)} ${"p99".padStart(10)}`);
    for (const [name, r] of [
      ["direct", d],
      ["proxy alone (judge off)", p],
      ["through observe (judge on)", o],
    ])
      console.log(`   ${name.padEnd(34)} ${ms(r.median).padStart(10)} ${ms(r.p99).padStart(10)}`);
    console.log(
      `   ${"added by observe".padEnd(34)} ${signed(added.median).padStart(10)} ${signed(added.p99).padStart(10)}   (goal: median < ${ADDED_MEDIAN_GOAL_MS} ms — ${verdict(added.median < ADDED_MEDIAN_GOAL_MS)})`,
    );
    console.log(
      `   ${"  of which the judge".padEnd(34)} ${signed(o.median - p.median).padStart(10)} ${signed(o.p99 - p.p99).padStart(10)}   (observe − proxy alone)`,
    );
    console.log(
      `   through observe / direct: ${(o.median / d.median).toFixed(2)}× median, ${(o.p99 / d.p99).toFixed(2)}× p99\n`,
    );
  }

  console.log(
    `2. throughput, ${LOOPS} concurrent loops, ${THROUGHPUT_SECONDS} s per target in ${SLICES} interleaved slices (goal through observe ≥ ${platformRate} req/s, the spec's request rate: ${limit} per ${periodSeconds} s)`,
  );
  for (const u of upstreams) {
    const r = await throughput([u.direct, u.observed]);
    const [d, o] = [r.get(u.direct), r.get(u.observed)];
    console.log(`   upstream: ${u.label}`);
    console.log(`   ${"direct".padEnd(34)} ${d.rps.toFixed(0).padStart(7)} req/s   (${d.count} requests)`);
    console.log(
      `   ${"through observe (judge on)".padEnd(34)} ${o.rps.toFixed(0).padStart(7)} req/s   (${o.count} requests)   ${(o.rps / d.rps).toFixed(2)}× direct, ${(o.rps / platformRate).toFixed(1)}× the platform's rate — ${verdict(o.rps >= platformRate)}\n`,
    );
  }

  // The judge was on: every exchange through observe was judged.
  for (const u of upstreams) {
    const s = u.judge.summary();
    const flagged = u.judge
      .results({ strict: false })
      .filter((r) => r.status === "failed" || r.status === "warned")
      .map((r) => `${r.id} (${r.status})`);
    console.log(
      `judge behind ${u.label}: ${s.judged} of ${s.exchanges} exchanges judged; flagged: ${flagged.join(", ") || "nothing"}`,
    );
  }
  console.log(
    "(a burst rule flagged is expected: this traffic runs far past the platform's rate and neither upstream answers 429)",
  );
}

await run(main);
