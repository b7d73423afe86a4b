import { API_KEY } from "../dist/tokens.js";
import { RateLimiter } from "../dist/transport/rate-limiter.js";
import { createTransport } from "../dist/transport/transport.js";

const body = JSON.stringify({ count: 2, results: [{ id: 1 }, { id: 2 }] });
const stub = async () => new Response(body, { status: 200, headers: { "content-type": "application/json" } });
const retry = { maxRetries: 2, initialDelayMs: 500, maxDelayMs: 8000, maxRetryAfterMs: 60000 };
const tr = createTransport({
  fetch: stub,
  retry,
  timeoutMs: 30000,
  deadlineMs: 120000,
  limiter: new RateLimiter({ requestsPerSecond: 1e9, burst: 1e6 }),
  logger: undefined,
});
const tr0 = createTransport({
  fetch: stub,
  retry,
  timeoutMs: 30000,
  deadlineMs: 120000,
  limiter: undefined,
  logger: undefined,
});
const N = 100000;
async function t(name, f) {
  for (let i = 0; i < 2000; i++) await f();
  const s = performance.now();
  for (let i = 0; i < N; i++) await f();
  console.log(name.padEnd(30), (((performance.now() - s) * 1000) / N).toFixed(3), "µs");
}
const mk = () =>
  new Request("https://x.test/cloud/v1/regions?limit=10&offset=0", {
    headers: { [API_KEY.headerName]: `${API_KEY.tokenPrefix}a` },
  });
await t("stub(req)", async () => stub(mk()));
await t("transport(req) no signals", async () => tr(mk()));
await t("transport no limiter", async () => tr0(mk()));
