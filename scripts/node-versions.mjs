// The supported Node versions besides the machine's own (the lowest, 20): installs each from npm's
// `node` package (real Node binaries; its install script fetches node-<platform>-<arch>) into
// .node-versions/<major>/ (git-ignored), and runs a command with one of them first on PATH, so that
// `node`, `npx`, pnpm and every child process they start use it.
//
//   node scripts/node-versions.mjs install [major...]      installs them (all by default); skips
//                                                           what is present and matches its pin
//   node scripts/node-versions.mjs run <major> -- <command...>
//                                                           runs the command; its exit code is ours
//   node scripts/node-versions.mjs list                    each major, its pin, where, and whether
//                                                           it is installed
//
// No dependency: npm (the machine's) does the download.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { constants } from "node:os";
import { delimiter, join } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The versions, pinned exactly: the newest release of each major when they were chosen
 * (`npm view node@22 version`, `npm view node@24 version`). Node 20, the lowest supported major,
 * is the machine's own and is not installed here.
 */
const VERSIONS = ["22.23.3", "24.21.0"];

const root = fileURLToPath(new URL("..", import.meta.url));
const DIR = join(root, ".node-versions");
const WINDOWS = process.platform === "win32";

const majorOf = (version) => Number(version.split(".")[0]);

function pinOf(major) {
  const version = VERSIONS.find((v) => majorOf(v) === Number(major));
  if (!version)
    fail(`no Node ${major} here: the versions are ${VERSIONS.join(", ")} (scripts/node-versions.mjs)`);
  return version;
}

/** The folder that holds the `node` binary of an install (the one that goes first on PATH). */
const binDir = (major, dir = join(DIR, String(major))) => join(dir, "node_modules", "node", "bin");
const nodeOf = (major, dir) => join(binDir(major, dir), WINDOWS ? "node.exe" : "node");

/** The version the installed binary reports (without the "v"), or undefined when there is none. */
function installedVersion(major, dir) {
  const node = nodeOf(major, dir);
  if (!existsSync(node)) return undefined;
  const result = spawnSync(node, ["--version"], { encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim().replace(/^v/, "") : undefined;
}

function fail(message) {
  console.error(`node-versions: ${message}`);
  process.exit(2);
}

/** npm, quiet unless it fails: its output (warnings about the machine's npm config) is printed then. */
function npm(args, cwd) {
  return new Promise((done) => {
    const child = spawn(WINDOWS ? "npm.cmd" : "npm", args, { cwd, shell: WINDOWS });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
    });
    child.stderr.on("data", (d) => {
      output += d;
    });
    child.on("error", (error) => done({ code: 1, output: `${output}${error.message}\n` }));
    child.on("close", (code, signal) => done({ code: code ?? signal, output }));
  });
}

async function install(major) {
  const version = pinOf(major);
  const target = join(DIR, String(major));
  const at = nodeOf(major);
  if (installedVersion(major) === version) {
    console.log(`Node ${version}: ${at} (present)`);
    return true;
  }
  const started = Date.now();
  // Installed beside the target and moved into place whole, so that a stopped install never leaves
  // a half one where a run would find it. A package.json of its own keeps npm inside the folder.
  const temp = join(DIR, `${major}.installing-${process.pid}`);
  rmSync(temp, { recursive: true, force: true });
  mkdirSync(temp, { recursive: true });
  writeFileSync(join(temp, "package.json"), `${JSON.stringify({ private: true }, null, 2)}\n`);
  const npmArgs = ["install", "--no-save", "--no-package-lock", "--no-audit", "--no-fund"];
  const { code, output } = await npm([...npmArgs, `node@${version}`], temp);
  const got = installedVersion(major, temp);
  if (code !== 0 || got !== version) {
    process.stderr.write(output);
    rmSync(temp, { recursive: true, force: true });
    console.error(
      code !== 0
        ? `node-versions: npm install node@${version} failed (exit ${code}), output above`
        : `node-versions: npm installed node@${version} but ${nodeOf(major, temp)} ${got ? `is ${got}` : "is missing or does not run"}` +
            " (its install script, which fetches the binary, may not have run: see npm's output above)",
    );
    return false;
  }
  rmSync(target, { recursive: true, force: true });
  renameSync(temp, target);
  console.log(`Node ${version}: ${at} (installed in ${((Date.now() - started) / 1000).toFixed(1)} s)`);
  return true;
}

function run(major, command) {
  const version = pinOf(major);
  const got = installedVersion(major);
  if (got !== version)
    fail(
      `Node ${version} is ${got ? `not installed (${got} is)` : "not installed"}: node scripts/node-versions.mjs install ${major}`,
    );
  const bin = binDir(major);
  const node = nodeOf(major);
  // First on PATH; and the variables npm and pnpm set for the Node that runs them, in case this runs
  // under one of them, so a child that reads them gets this Node too.
  const env = { ...process.env, PATH: `${bin}${delimiter}${process.env.PATH ?? ""}` };
  for (const name of ["NODE", "npm_node_execpath"]) if (name in env) env[name] = node;
  const result = spawnSync(command[0], command.slice(1), { stdio: "inherit", env, shell: WINDOWS });
  if (result.error) {
    console.error(`node-versions: ${command[0]}: ${result.error.message}`);
    process.exit(result.error.code === "ENOENT" ? 127 : 126); // as a shell does
  }
  if (result.signal) process.exit(128 + (constants.signals[result.signal] ?? 0));
  process.exit(result.status ?? 1);
}

function usage() {
  fail(
    "usage: node scripts/node-versions.mjs install [major...] | run <major> -- <command...> | list" +
      ` (majors: ${VERSIONS.map(majorOf).join(", ")})`,
  );
}

const [command, ...rest] = process.argv.slice(2);
if (command === "install") {
  const majors = rest.length > 0 ? rest : VERSIONS.map(majorOf);
  for (const major of majors) pinOf(major);
  mkdirSync(DIR, { recursive: true });
  // Side by side: each is mostly a download.
  const results = await Promise.all(majors.map(install));
  process.exit(results.every(Boolean) ? 0 : 1);
} else if (command === "run") {
  const [major, separator, ...argv] = rest;
  if (!major || separator !== "--" || argv.length === 0) usage();
  run(major, argv);
} else if (command === "list") {
  for (const version of VERSIONS) {
    const major = majorOf(version);
    const got = installedVersion(major);
    const state = got === version ? "installed" : got ? `${got} installed, run install` : "not installed";
    console.log(`${major} ${version} ${nodeOf(major)} (${state})`);
  }
} else {
  usage();
}
