// Global setup: one Chromium for every browser test of the package (report-browser, report-html,
// verify-playwright-har), launched once as a server whose WebSocket endpoint the test files get
// through provide/inject (sharedChromium). Each launch cost about a second of CPU on the 2-core
// machine the whole test command shares; each file still opens its own contexts and closes them.
import { chromium } from "playwright-core";
import type { TestProject } from "vitest/node";
import { findChromium } from "../../docs/scripts/chromium.mjs";

declare module "vitest" {
  export interface ProvidedContext {
    /** The shared Chromium's WebSocket endpoint; empty when no Chromium is installed. */
    chromiumEndpoint: string;
  }
}

/** Generous, never a measure of speed: a launch waits for the browser's own start-up event. */
export const BROWSER_TIMEOUT_MS = 60_000;

export default async function launchSharedChromium(project: TestProject) {
  const executablePath = findChromium();
  // No Chromium: the browser tests say how to install one when they connect; the others run.
  if (!executablePath) {
    project.provide("chromiumEndpoint", "");
    return;
  }
  const server = await chromium.launchServer({ executablePath, headless: true, timeout: BROWSER_TIMEOUT_MS });
  project.provide("chromiumEndpoint", server.wsEndpoint());
  return () => server.close();
}
