// One Chromium for every browser test file: the package's tests run in one worker (vitest.config.ts)
// whose module graph the files share (isolate: false), as they share the built site (built-site.ts);
// launching one costs about a second of CPU on the 2-core machine the whole `pnpm test` shares.
// Each file opens its own context and closes it; the browser goes with the worker (playwright
// closes what it launched when the process exits).
import { type Browser, chromium } from "playwright-core";
import { findChromium, HOW_TO_INSTALL } from "../scripts/chromium.mjs";

/** Generous, never a measure of speed: a launch waits for the browser's own start-up event. */
const LAUNCH_TIMEOUT = 60_000;

let launching: Promise<Browser> | undefined;

/** The worker's browser, launched by the first file that asks. */
export function sharedBrowser(): Promise<Browser> {
  launching ??= (async () => {
    const executablePath = findChromium();
    if (!executablePath) throw new Error(`No Chromium found for the browser tests. ${HOW_TO_INSTALL}`);
    const browser = await chromium.launch({ executablePath, headless: true, timeout: LAUNCH_TIMEOUT });
    // A browser that died (or was closed) is launched again for the next file, not handed out dead.
    browser.on("disconnected", () => {
      launching = undefined;
    });
    return browser;
  })();
  return launching;
}
