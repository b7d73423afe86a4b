// One Chromium for every browser test file of a run, whatever the number of workers: launched once
// here (vitest's globalSetup) and reached by its WebSocket endpoint (shared-browser.ts). A launch
// costs about a second of CPU on the 2-core machine the whole `pnpm test` shares.
import { type BrowserServer, chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { findChromium, HOW_TO_INSTALL } from "../scripts/chromium.mjs";

declare module "vitest" {
  interface ProvidedContext {
    /** The shared Chromium's WebSocket endpoint, on 127.0.0.1; empty when there is no Chromium. */
    chromiumEndpoint: string;
    /** Why there is no Chromium, for the browser tests to fail with (the others run without one). */
    chromiumMissing: string;
  }
}

/** Generous, never a measure of speed: a launch waits for the browser's own start-up event. */
const LAUNCH_TIMEOUT = 60_000;

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const executablePath = findChromium();
  project.provide("chromiumMissing", `No Chromium found for the browser tests. ${HOW_TO_INSTALL}`);
  if (!executablePath) {
    project.provide("chromiumEndpoint", "");
    return async () => {};
  }
  const server: BrowserServer = await chromium.launchServer({
    executablePath,
    headless: true,
    host: "127.0.0.1",
    port: 0,
    timeout: LAUNCH_TIMEOUT,
  });
  project.provide("chromiumEndpoint", server.wsEndpoint());
  return () => server.close();
}
