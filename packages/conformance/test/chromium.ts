// The package's one Chromium (test/shared-chromium.ts, a global setup), connected to from a test file.
import { type Browser, chromium } from "playwright-core";
import { inject } from "vitest";
import { HOW_TO_INSTALL } from "../../docs/scripts/chromium.mjs";
import { BROWSER_TIMEOUT_MS } from "./shared-chromium.js";

/** A connection to the shared Chromium; closing it disconnects this file, the browser stays. */
export async function sharedChromium(): Promise<Browser> {
  const endpoint = inject("chromiumEndpoint");
  if (!endpoint) throw new Error(`No Chromium found for the browser tests. ${HOW_TO_INSTALL}`);
  return chromium.connect(endpoint, { timeout: BROWSER_TIMEOUT_MS });
}
