// `startPrismMock({ port: 0 })` asks the system for a free port, lets it go, then starts Prism on it:
// Prism cannot listen on port 0 itself. Another server can take the port in between, and on the
// loaded machine the tests share, one did (teeth's Prism run ended with Prism's
// "listen EADDRINUSE"). A port the mock picked itself is picked again; a port the caller named is
// theirs, and taken it stays an error. In-process, with a stand-in for Prism's start: the real
// one's refusal reads as below (checked by hand against Prism 5: "listen EADDRINUSE: address
// already in use 127.0.0.1:<port>"), and a real start costs seconds of CPU.
import { describe, expect, it } from "vitest";
import { onFreePort } from "../scripts/mock.mjs";

const taken = (port: number) =>
  new Error(
    `Prism exited with code 1 before it was ready:\nlisten EADDRINUSE: address already in use 127.0.0.1:${port}`,
  );

describe("a port the mock picked itself", () => {
  it("is picked again when Prism finds it taken, and the start goes on", async () => {
    const offered = [40001, 40002, 40003];
    const tried: number[] = [];
    const started = await onFreePort(
      async () => offered.shift() ?? 0,
      async (port) => {
        tried.push(port);
        if (port !== 40003) throw taken(port);
        return { url: `http://127.0.0.1:${port}` };
      },
    );
    expect(tried).toEqual([40001, 40002, 40003]);
    expect(started.url).toBe("http://127.0.0.1:40003");
  });

  it("gives up after a few tries, with Prism's own refusal", async () => {
    let tries = 0;
    const start = onFreePort(
      async () => 40000 + tries,
      async (port) => {
        tries++;
        throw taken(port);
      },
    );
    await expect(start).rejects.toThrow(/EADDRINUSE/);
    expect(tries).toBeGreaterThan(1);
    expect(tries).toBeLessThan(10);
  });

  it("is not picked again for any other failure", async () => {
    let tries = 0;
    const start = onFreePort(
      async () => 40000,
      async () => {
        tries++;
        throw new Error("Prism did not start within 120000 ms:");
      },
    );
    await expect(start).rejects.toThrow(/did not start/);
    expect(tries).toBe(1);
  });
});
