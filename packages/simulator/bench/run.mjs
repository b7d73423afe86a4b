// `pnpm bench`: requests per second and p99 latency of GET /cloud/v1/regions, the simulator
// (rate limit off) against Prism on the same bundled spec, measured in one run on this machine.
// Each server runs in its own process; autocannon drives both from this one with the same settings.

import { spawn } from "node:child_process";
import { cpus, totalmem } from "node:os";
import { fileURLToPath } from "node:url";
import { authorization, loadModel, tokenScheme } from "@platform-api/spec";
import { startPrismMock } from "@platform-api/spec/mock";
import autocannon from "autocannon";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONNECTIONS = 16;
const TOKEN = "300112$sim-client-7c1f0d9a4e";
const PATH = "/cloud/v1/regions";

async function startSimulatorProcess() {
  const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
  const child = spawn(process.execPath, [cli, "--port", "0", "--rate-limit", "0"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  // The ready line names the URL of the port it took.
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error("simulator not ready within 15 s")), 15_000);
    child.stdout.once("data", (chunk) => {
      clearTimeout(timer);
      const found = /at (http:\/\/\S+)/.exec(chunk.toString());
      if (found) resolve(found[1]);
      else reject(new Error(`unexpected ready line: ${chunk}`));
    });
    child.once("exit", (code) => reject(new Error(`simulator exited with ${code}`)));
  });
  return {
    url,
    close: () =>
      new Promise((done) => {
        child.once("exit", done);
        child.kill("SIGTERM");
      }),
  };
}

async function load(url, seconds) {
  const result = await autocannon({
    url: `${url}${PATH}`,
    headers: { Authorization: authorization(tokenScheme(loadModel(), "APIKey"), TOKEN) },
    connections: CONNECTIONS,
    duration: seconds,
  });
  const bad = result.non2xx + result.errors + result.timeouts;
  if (bad > 0)
    throw new Error(
      `${url}${PATH}: ${result.non2xx} non-2xx answers, ${result.errors} errors, ${result.timeouts} timeouts`,
    );
  return { rps: result.requests.average, p99: result.latency.p99, total: result.requests.total };
}

async function measure(name, start) {
  const server = await start();
  try {
    await load(server.url, 2); // warm-up: JIT, caches, Prism's first-request work
    return { name, ...(await load(server.url, SECONDS)) };
  } finally {
    await server.close();
  }
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`machine: ${machine}`);
console.log(`GET ${PATH}, ${CONNECTIONS} connections, ${SECONDS} s each after a 2 s warm-up\n`);

const simulator = await measure("simulator", startSimulatorProcess);
const prism = await measure("Prism 5.14.2", async () => startPrismMock({ port: 0 }));

for (const r of [simulator, prism]) {
  console.log(
    `${r.name.padEnd(14)} ${r.rps.toFixed(0).padStart(7)} req/s   p99 ${String(r.p99).padStart(4)} ms   (${r.total} requests)`,
  );
}
const ratio = simulator.rps / prism.rps;
console.log(
  `\nsimulator / Prism: ${ratio.toFixed(1)}× the requests per second (goal ≥ 5×); p99 ${simulator.p99} ms vs ${prism.p99} ms (goal: lower)`,
);
if (ratio < 5 || simulator.p99 >= prism.p99) process.exitCode = 1;
