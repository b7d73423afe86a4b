#!/usr/bin/env node
// The browser tests drive the system's Chromium with playwright-core; nothing downloads a browser.
// `node packages/docs/scripts/chromium.mjs --install` installs Debian's chromium package when no
// Chromium is found and apt-get can be used (as root, or through password-less sudo).
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

const NAMES = ["chromium", "chromium-browser", "google-chrome-stable", "google-chrome"];
const MAC = [
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
];

export const HOW_TO_INSTALL =
  "Install it with `node packages/docs/scripts/chromium.mjs --install` (Debian's chromium package; " +
  "`npx pnpm test` does this when it can), or set CHROMIUM_PATH to a Chromium or Chrome executable.";

/** The Chromium to use: CHROMIUM_PATH, else the first known name on PATH; undefined when none. */
export function findChromium() {
  const fromEnv = process.env.CHROMIUM_PATH;
  if (fromEnv) {
    if (!existsSync(fromEnv)) throw new Error(`CHROMIUM_PATH=${fromEnv} does not exist. ${HOW_TO_INSTALL}`);
    return fromEnv;
  }
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of NAMES) for (const dir of dirs) if (existsSync(join(dir, name))) return join(dir, name);
  return MAC.find((path) => existsSync(path));
}

function installWithApt() {
  const root = process.getuid?.() === 0;
  const hasSudo = !root && spawnSync("sudo", ["-n", "true"], { stdio: "ignore" }).status === 0;
  if (!root && !hasSudo) return "apt-get needs root, and password-less sudo is not available";
  if (spawnSync("sh", ["-c", "command -v apt-get"], { stdio: "ignore" }).status !== 0)
    return "apt-get is not available";
  const prefix = root ? [] : ["sudo", "-n"];
  const env = { ...process.env, DEBIAN_FRONTEND: "noninteractive" };
  for (const args of [
    ["apt-get", "update"],
    ["apt-get", "install", "-y", "--no-install-recommends", "chromium"],
  ]) {
    const command = [...prefix, ...args];
    console.log(`$ ${command.join(" ")}`);
    const run = spawnSync(command[0], command.slice(1), { stdio: ["ignore", "ignore", "inherit"], env });
    if (run.status !== 0) return `\`${args.join(" ")}\` exited with ${run.status ?? run.signal}`;
  }
  return undefined;
}

function main() {
  const found = findChromium();
  if (found) {
    console.log(`Chromium for the browser tests: ${found}`);
  } else if (process.argv.includes("--install")) {
    console.log("No Chromium for the browser tests; installing Debian's chromium package.");
    const problem = installWithApt();
    const installed = findChromium();
    if (problem || !installed) {
      console.error(
        `Could not install Chromium: ${problem ?? "chromium is still not on PATH"}. ${HOW_TO_INSTALL}`,
      );
      process.exit(1);
    }
    console.log(`Chromium for the browser tests: ${installed}`);
  } else {
    console.error(`No Chromium found for the browser tests. ${HOW_TO_INSTALL}`);
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  try {
    main();
  } catch (error) {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  }
}
