// The run's one Chromium (launched by browser-setup.ts, vitest's globalSetup), connected to once
// per test worker and shared by every browser test file in it (isolate: false). Each file opens its
// own context and closes it.
import { type Browser, chromium } from "playwright-core";
import { inject } from "vitest";

/** Generous, never a measure of speed: connecting waits for the browser's answer. */
const CONNECT_TIMEOUT = 60_000;

let connecting: Promise<Browser> | undefined;

/** The run's browser, connected to by the first file of the worker that asks. */
export function sharedBrowser(): Promise<Browser> {
  connecting ??= (async () => {
    const endpoint = inject("chromiumEndpoint");
    if (!endpoint) throw new Error(inject("chromiumMissing"));
    const browser = await chromium.connect(endpoint, { timeout: CONNECT_TIMEOUT });
    // A connection that dropped is made again for the next file, not handed out dead.
    browser.on("disconnected", () => {
      connecting = undefined;
    });
    return browser;
  })();
  return connecting;
}
