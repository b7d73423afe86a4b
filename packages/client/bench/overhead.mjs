// Per-request overhead with a stub fetch (no network), in the manner of openapi-fetch's own
// benchmark: our client with every feature on, bare openapi-fetch, and axios with a stub adapter.
import axios from "axios";
import createFetchClient from "openapi-fetch";
import { Bench } from "tinybench";
import { createClient } from "../dist/index.js";

const BASE = "https://api.example.test";
const body = JSON.stringify({ count: 2, results: [{ id: 1 }, { id: 2 }] });
const stubFetch = async () =>
  new Response(body, { status: 200, headers: { "content-type": "application/json" } });

const bare = createFetchClient({ baseUrl: BASE, fetch: stubFetch });
const ours = createClient({
  apiKey: "2971$bench",
  baseUrl: BASE,
  fetch: stubFetch,
  // every feature on: retries, timeouts, deadline, parameter checks, and a limiter high enough
  // never to wait (the limiter's own bookkeeping still runs on every call)
  rateLimit: { requestsPerSecond: 1e9, burst: 1e6 },
});
const ax = axios.create({
  baseURL: BASE,
  adapter: async (config) => ({
    data: JSON.parse(body),
    status: 200,
    statusText: "OK",
    headers: {},
    config,
    request: {},
  }),
});

export async function measureOverhead({ time = 1500 } = {}) {
  const bench = new Bench({ time, warmupTime: 300 });
  const query = { params: { query: { limit: 10, offset: 0 } } };
  bench
    .add("openapi-fetch (bare)", async () => {
      await bare.GET("/cloud/v1/regions", query);
    })
    .add("@platform-api/client (all features)", async () => {
      await ours.GET("/cloud/v1/regions", query);
    })
    .add("axios", async () => {
      await ax.get("/cloud/v1/regions", {
        params: { limit: 10, offset: 0 },
        headers: { Authorization: "APIKey 2971$bench" },
      });
    });
  await bench.run();
  const byName = Object.fromEntries(bench.tasks.map((t) => [t.name, t.result.latency.mean]));
  return {
    meanMs: byName,
    oursVsBare: byName["@platform-api/client (all features)"] / byName["openapi-fetch (bare)"],
    oursVsAxios: byName["@platform-api/client (all features)"] / byName.axios,
  };
}
