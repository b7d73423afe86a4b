// A loopback server that allows `ALLOWED` requests per sliding second and answers 429 beyond.
// It runs in its own process (forked by rate-limit.mjs) so the client's event loop cannot skew the
// arrival times it measures. It reports its port, then its counts when asked, over IPC.
import { createServer } from "node:http";

const allowed = Number(process.env.ALLOWED ?? 100);
const arrivals = [];
let served = 0;
let tooMany = 0;
const server = createServer((_req, res) => {
  const now = performance.now();
  while (arrivals.length > 0 && now - arrivals[0] >= 1000) arrivals.shift();
  if (arrivals.length >= allowed) {
    tooMany++;
    res.writeHead(429, { "content-type": "application/json", "retry-after": "1" });
    res.end("{}");
    return;
  }
  arrivals.push(now);
  served++;
  res.writeHead(200, { "content-type": "application/json" });
  res.end('{"count":0,"results":[]}');
});
server.listen(0, "127.0.0.1", () => process.send({ port: server.address().port }));
process.on("message", (message) => {
  if (message === "stats") process.send({ served, tooMany });
  if (message === "stop") {
    server.closeAllConnections();
    server.close(() => process.exit(0));
  }
});
// Never outlive the benchmark.
setTimeout(() => process.exit(1), 120_000).unref();
