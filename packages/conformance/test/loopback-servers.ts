// Servers a test file starts on 127.0.0.1, each closed after the test that started it. Call
// `loopbackServers()` at a file's top level: it registers that file's afterEach (with isolate off,
// a hook registered when this module is first imported would belong to one file only).
import type { Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach } from "vitest";

/**
 * `listen(server)`: starts it on a free loopback port and gives its base URL; `closeAfter(close)`:
 * anything else the test started, ended after it as the servers are.
 */
export function loopbackServers(): {
  listen(server: Server): Promise<string>;
  closeAfter(close: () => Promise<unknown>): void;
} {
  const closers: (() => Promise<unknown>)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0).reverse()) await close();
  });
  return {
    closeAfter: (close) => closers.push(close),
    async listen(server) {
      await new Promise<void>((done) => server.listen(0, "127.0.0.1", done));
      closers.push(() => new Promise((done) => server.close(done)));
      return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    },
  };
}
