// A target that answers every request with 500 and counts them: the tests of checks that must
// come before anything is sent (the report folder, the token) read the count before and after.
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll } from "vitest";

export interface CountingServer {
  /** Its base URL (set once the file's beforeAll has run). */
  url: string;
  /** Requests it has received so far. */
  requests: number;
}

/** Starts the server before the file's tests and closes it after them. */
export function countingServer(): CountingServer {
  const counting: CountingServer = { url: "", requests: 0 };
  let server: Server;
  beforeAll(async () => {
    server = createServer((_req, res) => {
      counting.requests++;
      res.writeHead(500).end();
    });
    await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
    counting.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((done) => server.close(() => done())));
  return counting;
}
