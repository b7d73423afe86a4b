// The proxy's server on its address, and its closing: exchanges in flight are let finish, within a
// bound, before every connection is closed.

import type { Agent, Server } from "node:http";
import type { AddressInfo } from "node:net";

export interface ObservingProxy {
  /** The proxy's own base URL, to give the client instead of the platform's. */
  url: string;
  /** Stops accepting, lets the exchanges in flight finish (at most `graceMs`), then closes. */
  close(graceMs?: number): Promise<void>;
}

/** Listens on `host`:`port`; closing also ends the connections kept to the upstream (`agent`). */
export function listen(
  server: Server,
  host: string,
  port: number,
  inFlight: Set<Promise<void>>,
  agent: Agent,
): Promise<ObservingProxy> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      const address = server.address() as AddressInfo;
      const named = host.includes(":") ? `[${host}]` : host;
      resolve({
        url: `http://${named}:${address.port}`,
        async close(graceMs = 5000) {
          const closed = new Promise<void>((done) => server.close(() => done()));
          server.closeIdleConnections();
          let timer: NodeJS.Timeout | undefined;
          await Promise.race([
            Promise.all([...inFlight]),
            new Promise((done) => {
              timer = setTimeout(done, graceMs);
            }),
          ]);
          clearTimeout(timer);
          server.closeAllConnections();
          await closed;
          agent.destroy();
        },
      });
    });
  });
}
