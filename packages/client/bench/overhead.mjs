// Per-request overhead with a stub fetch (no network), in the manner of openapi-fetch's own
// benchmark: our client with every feature on, bare openapi-fetch, and axios with a stub adapter.
import axios from "axios";
import createFetchClient from "openapi-fetch";
import { Bench } from "tinybench";
import { createClient } from "../dist/index.js";
import { API_KEY } from "../dist/tokens.js";

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

/**
 * Mean latency per call of each client. The three run in turn for several rounds and the median
 * of each round's ratio is reported, because one run on a shared 2-core machine is noisy.
 */
export async function measureOverhead({ time = 1000, rounds = 7 } = {}) {
  const query = { params: { query: { limit: 10, offset: 0 } } };
  const tasks = {
    "openapi-fetch (bare)": async () => {
      await bare.GET("/cloud/v1/regions", query);
    },
    "@platform-api/client (all features)": async () => {
      await ours.GET("/cloud/v1/regions", query);
    },
    axios: async () =>
      ax.get("/cloud/v1/regions", {
        params: { limit: 10, offset: 0 },
        headers: { [API_KEY.headerName]: `${API_KEY.tokenPrefix}2971$bench` },
      }),
  };
  const samples = Object.fromEntries(Object.keys(tasks).map((name) => [name, []]));
  for (let round = 0; round < rounds; round++) {
    const bench = new Bench({ time, warmupTime: 200 });
    for (const [name, fn] of Object.entries(tasks)) bench.add(name, fn);
    await bench.run();
    for (const task of bench.tasks) {
      if (!task.result?.latency)
        throw new Error(`${task.name} failed: ${task.result?.error ?? task.result?.state}`);
      samples[task.name].push(task.result.latency.mean);
    }
  }
  const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
  const ratio = (a, b) => median(samples[a].map((x, i) => x / samples[b][i]));
  const oursName = "@platform-api/client (all features)";
  return {
    meanMs: Object.fromEntries(Object.entries(samples).map(([name, xs]) => [name, median(xs)])),
    oursVsBare: ratio(oursName, "openapi-fetch (bare)"),
    oursVsAxios: ratio(oursName, "axios"),
    rounds,
  };
}
