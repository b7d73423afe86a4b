// Rate-limit utilisation: 1,000 GETs against a loopback server (its own process) that allows 100
// requests per sliding second and answers 429 beyond, through the client's default limiter.
import { fork } from "node:child_process";
import { once } from "node:events";
import { createClient } from "../dist/index.js";

export async function measureRateLimit({ requests = 1000, allowedPerSecond = 100, callers = 50 } = {}) {
  const server = fork(new URL("./limited-server.mjs", import.meta.url), [], {
    env: { ...process.env, ALLOWED: String(allowedPerSecond) },
    stdio: ["ignore", "inherit", "inherit", "ipc"],
  });
  const [{ port }] = await once(server, "message");
  const client = createClient({ apiKey: "2971$bench", baseUrl: `http://127.0.0.1:${port}` });
  let errors = 0;
  let next = 0;
  const started = performance.now();
  // Several callers share the client, as an application's concurrent tasks would.
  await Promise.all(
    Array.from({ length: callers }, async () => {
      while (next < requests) {
        next++;
        const { response } = await client.GET("/cloud/v1/regions").catch(() => ({ response: { ok: false } }));
        if (!response.ok) errors++;
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  server.send("stats");
  const [{ served, tooMany }] = await once(server, "message");
  server.send("stop");
  await once(server, "exit");
  return {
    requests,
    seconds,
    successfulPerSecond: served / seconds,
    responses429: tooMany,
    share429: tooMany / (served + tooMany),
    errorsSurfaced: errors,
  };
}
