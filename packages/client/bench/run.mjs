// `pnpm bench`: the three figures of the client, measured in one run on this machine.
import { cpus, loadavg, totalmem } from "node:os";
import { measureBundleSize } from "./bundle-size.mjs";
import { measureOverhead } from "./overhead.mjs";
import { measureRateLimit } from "./rate-limit.mjs";

// The load average too: on a shared machine the overhead ratio moves with what else runs.
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, load ${loadavg()[0].toFixed(2)}`;
console.log(`machine: ${machine}\n`);

const overhead = await measureOverhead();
console.log(
  `1. per-request overhead with a stub fetch (median over ${overhead.rounds} rounds of the mean latency per call)`,
);
for (const [name, ms] of Object.entries(overhead.meanMs))
  console.log(`   ${name.padEnd(40)} ${(ms * 1000).toFixed(2)} µs`);
console.log(`   ours / bare openapi-fetch: ${overhead.oursVsBare.toFixed(3)}× (goal ≤ 1.15×)`);
console.log(`   ours / axios:              ${overhead.oursVsAxios.toFixed(3)}× (goal < 1×)\n`);

const size = await measureBundleSize();
const kb = (n) => `${n.toLocaleString("en")} B = ${(n / 1024).toFixed(2)} kB`;
console.log("2. runtime bundle size (esbuild, minified + gzip, openapi-fetch included)");
console.log(
  `   @platform-api/client: ${kb(size.ours.gzip)} gzip (${kb(size.ours.minified)} minified) (goal ≤ 12 kB = 12,288 B)`,
);
console.log(
  `   with paginate, waitForTask(s): ${kb(size.withHelpers.gzip)} gzip (${kb(size.withHelpers.minified)} minified)`,
);
console.log(
  `   openapi-fetch alone:  ${kb(size.openapiFetch.gzip)} gzip (${kb(size.openapiFetch.minified)} minified)\n`,
);

const rate = await measureRateLimit();
console.log("3. rate-limit utilisation: 1,000 GETs, server allows 100/s and answers 429 beyond");
console.log(
  `   ${rate.successfulPerSecond.toFixed(1)} successful requests/s over ${rate.seconds.toFixed(2)} s (goal ≥ 95)`,
);
console.log(
  `   ${rate.responses429} responses 429 (${(rate.share429 * 100).toFixed(2)}%, goal ≤ 1%), ${rate.errorsSurfaced} errors surfaced (goal 0)`,
);
