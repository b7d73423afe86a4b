#!/usr/bin/env node
// Release dry run (`pnpm release:dry`): what a release would do, short of publishing, on a
// throw-away copy of the repository, so the working tree is never written to. Versions with
// changesets, builds, packs every workspace package, checks each tarball with publint and
// are-the-types-wrong, then installs the client's tarball into a fresh project that compiles a
// consumer program against it and runs it against the simulator. Stops at the first problem, naming
// the stage; every temp dir is removed at the end, on failure too.
import { spawn, spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
const CONSUMER_TIMEOUT_MS = 60_000;

const temps = [];
const times = [];
let current = "setup";

function tempDir(name) {
  const dir = mkdtempSync(join(tmpdir(), `platform-api-release-dry-${name}-`));
  temps.push(dir);
  return dir;
}

async function stage(key, title, body) {
  current = `${times.length + 1} (${key})`;
  console.log(`\n=== ${times.length + 1}. ${title}`);
  const start = performance.now();
  await body();
  times.push([key, performance.now() - start]);
}

// `quiet` captures the output and shows it only on failure: pnpm pack lists every file it packs.
function run(what, [cmd, ...args], { quiet = false, ...options } = {}) {
  console.log(`$ ${what}`);
  const result = spawnSync(cmd, args, { stdio: quiet ? "pipe" : "inherit", encoding: "utf8", ...options });
  if (result.status === 0) return result;
  if (quiet) process.stderr.write(`${result.stdout ?? ""}${result.stderr ?? ""}`);
  const why = result.error
    ? `could not start (${result.error.message})`
    : `exited with ${result.status ?? result.signal}`;
  throw new Error(`\`${what}\` ${why}`);
}

// The simulator answers from this process's event loop, which spawnSync would block.
function runAsync(what, [cmd, ...args], options) {
  console.log(`$ ${what}`);
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: "inherit", ...options });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill();
    }, CONSUMER_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`\`${what}\` could not start (${error.message})`));
    });
    child.on("exit", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else if (timedOut) reject(new Error(`\`${what}\` did not end within ${CONSUMER_TIMEOUT_MS / 1000} s`));
      else reject(new Error(`\`${what}\` exited with ${code ?? signal}`));
    });
  });
}

/** The workspace packages a package depends on at run time, directly or through one another. */
function workspaceDependencies(pkg, all, seen = new Set([pkg.name])) {
  const found = [];
  for (const name of Object.keys(pkg.manifest.dependencies ?? {})) {
    const dependency = all.find((p) => p.name === name);
    if (!dependency || seen.has(name)) continue;
    seen.add(name);
    found.push(dependency, ...workspaceDependencies(dependency, all, seen));
  }
  return found;
}

const kB = (bytes) => `${(bytes / 1000).toFixed(1)} kB`;
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
// attw has nothing to check in a package without declarations (the docs site).
const shipsTypes = (pkg) => {
  const published = { ...pkg, ...pkg.publishConfig };
  return Boolean(
    published.types || published.typings || JSON.stringify(published.exports ?? null).includes('"types"'),
  );
};

// Ctrl-C reaches the running child as well; ignoring it here lets that child's failure unwind
// through `finally`, so the temp dirs are removed even then.
process.on("SIGINT", () => {});

const started = performance.now();
// One record per workspace package, filled in stage by stage: dir, name, isPrivate, before, after,
// manifest, tarball, size, checks.
let packages = [];
try {
  const copy = tempDir("copy");
  const out = tempDir("tarballs");
  const pnpm = [join(copy, "node_modules/.bin/pnpm")];

  await stage("copy", "copy the repository and install", () => {
    const listed = run(
      "git ls-files -co --exclude-standard",
      ["git", "ls-files", "-co", "--exclude-standard", "-z"],
      { cwd: root, quiet: true },
    ).stdout.split("\0");
    let copied = 0;
    for (const file of listed) {
      // A tracked file deleted in the working tree is still listed: the copy mirrors the tree.
      if (!file || !existsSync(join(root, file))) continue;
      mkdirSync(dirname(join(copy, file)), { recursive: true });
      // verbatimSymlinks: a relative link must not become an absolute one back into the real tree.
      cpSync(join(root, file), join(copy, file), { verbatimSymlinks: true });
      copied++;
    }
    console.log(`${copied} files copied to ${copy}`);
    // No `git init`: changeset version and turbo both work without a repository, and a copy that is
    // not one cannot be committed or pushed from by mistake. pnpm is the pinned one through npx, as
    // the README installs; after that the copy's own (a root dev dependency), as `npx pnpm` picks it.
    const pinned = readJson(join(root, "package.json")).packageManager;
    run(
      `npx -y ${pinned} install --frozen-lockfile --prefer-offline`,
      ["npx", "-y", pinned, "install", "--frozen-lockfile", "--prefer-offline"],
      { cwd: copy },
    );
  });

  await stage("version", "version with changesets", () => {
    // The workspace's packages, as pnpm-workspace.yaml lists them.
    const dirs = ["spec", ...readdirSync(join(copy, "packages")).map((dir) => `packages/${dir}`)];
    packages = dirs
      .filter((dir) => existsSync(join(copy, dir, "package.json")))
      .map((dir) => {
        const pkg = readJson(join(copy, dir, "package.json"));
        return { dir, name: pkg.name, isPrivate: pkg.private === true, before: pkg.version };
      });
    const changesetDir = join(copy, ".changeset");
    const pending = existsSync(changesetDir)
      ? readdirSync(changesetDir).filter((file) => file.endsWith(".md") && file !== "README.md")
      : [];
    if (pending.length === 0) {
      console.log("No pending changesets: the current versions are packed.");
    } else {
      console.log(`${pending.length} pending changesets: ${pending.join(", ")}`);
      // The root's release:version, when it has one, is `changeset version` plus what the release
      // does alongside (the spec's breaking-change gate and released baseline): the dry run follows it.
      const script = readJson(join(copy, "package.json")).scripts?.["release:version"];
      if (script)
        run(`pnpm run release:version (${script})`, [...pnpm, "run", "release:version"], { cwd: copy });
      else run("changeset version", [join(copy, "node_modules/.bin/changeset"), "version"], { cwd: copy });
    }
    const width = Math.max(...packages.map((p) => p.name.length));
    for (const p of packages) {
      p.manifest = readJson(join(copy, p.dir, "package.json"));
      p.after = p.manifest.version;
      const change = p.after === p.before ? `${p.after} (unchanged)` : `${p.before} → ${p.after}`;
      const note = p.isPrivate ? "   private: changesets versions it, publish would skip it" : "";
      console.log(`${p.name.padEnd(width)}  ${change}${note}`);
    }
  });

  await stage("build+pack", "build and pack every workspace package", () => {
    run("pnpm build", [...pnpm, "build"], { cwd: copy });
    // Private packages too: pnpm pack accepts them (only publish refuses), and their tarballs are
    // worth the same checks.
    for (const p of packages) {
      const known = new Set(readdirSync(out));
      run(`pnpm pack (${p.dir})`, [...pnpm, "pack", "--pack-destination", out], {
        cwd: join(copy, p.dir),
        quiet: true,
      });
      p.tarball = readdirSync(out).find((file) => file.endsWith(".tgz") && !known.has(file));
      if (!p.tarball) throw new Error(`pnpm pack of ${p.name} wrote no tarball`);
      p.size = statSync(join(out, p.tarball)).size;
      console.log(`  ${p.tarball}  ${kB(p.size)}`);
    }
  });

  await stage("checks", "check the tarballs (publint --strict, attw)", () => {
    const bin = join(copy, "packages/client/node_modules/.bin");
    for (const p of packages) {
      const publint = run(`publint ${p.tarball} --strict`, [join(bin, "publint"), p.tarball, "--strict"], {
        cwd: out,
        quiet: true,
      });
      process.stdout.write(publint.stdout);
      // Suggestions do not fail --strict; the summary still counts them, so they stay in sight.
      const suggestions = publint.stdout.split("Suggestions:")[1]?.match(/^\d+\. /gm)?.length ?? 0;
      p.checks = [
        suggestions ? `publint (${suggestions} suggestion${suggestions > 1 ? "s" : ""})` : "publint",
      ];
      if (!shipsTypes(p.manifest)) {
        console.log(`${p.name} ships no type declarations: no attw check.`);
        continue;
      }
      // Every package is ESM only, so CommonJS resolution is not a target.
      run(`attw ${p.tarball} --profile esm-only`, [join(bin, "attw"), p.tarball, "--profile", "esm-only"], {
        cwd: out,
      });
      p.checks.push("attw");
    }
  });

  await stage("consumer", "consumer check: npm install, tsc, run against the simulator", async () => {
    const client = packages.find((p) => p.name === "@platform-api/client");
    if (!client) throw new Error("no @platform-api/client in the workspace");
    const consumer = tempDir("consumer");
    cpSync(join(root, "scripts/release-dry"), consumer, { recursive: true });
    const manifest = { name: "release-dry-consumer", private: true, type: "module" };
    writeFileSync(join(consumer, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    // npm, not pnpm: the way most consumers install it; openapi-fetch comes from the registry. The
    // client's own workspace dependencies (the spec package) are not published yet, so their packed
    // tarballs are installed beside it, as the registry would serve them.
    const tarballs = [client, ...workspaceDependencies(client, packages)].map((p) => p.tarball);
    run(
      `npm install ${tarballs.join(" ")}`,
      ["npm", "install", "--no-audit", "--no-fund", ...tarballs.map((t) => join(out, t))],
      { cwd: consumer },
    );
    run("tsc -p tsconfig.json", [join(copy, "node_modules/.bin/tsc"), "-p", "."], { cwd: consumer });

    const simulator = await import(pathToFileURL(join(copy, "packages/simulator/dist/index.js")).href);
    // env: {} so that a GCORE_API_KEY of whoever runs this does not replace the default token.
    const sim = await simulator.startSimulator({
      port: 0,
      host: "127.0.0.1",
      apiKey: simulator.DEFAULT_TOKENS.client,
      env: {},
    });
    try {
      console.log(`Simulator at ${sim.url}`);
      // Without the client's GCORE_* fallbacks, which could stand in for options the program failed
      // to pass; the token travels in the environment, never on a command line or in the output.
      const env = Object.fromEntries(
        Object.entries(process.env).filter(([key]) => !key.startsWith("GCORE_")),
      );
      await runAsync("node dist/consumer.js", [process.execPath, "dist/consumer.js"], {
        cwd: consumer,
        env: { ...env, RELEASE_DRY_BASE_URL: sim.url, RELEASE_DRY_API_KEY: sim.apiKey },
      });
    } finally {
      await sim.close();
    }
  });

  current = "summary";
  console.log("\n=== Release dry run passed");
  const rows = packages.map((p) => [
    `${p.name}${p.isPrivate ? " (private)" : ""}`,
    p.after === p.before ? p.after : `${p.before} → ${p.after}`,
    p.tarball,
    kB(p.size),
    `${p.checks.join(", ")} ✓`,
  ]);
  const widths = rows[0].map((_, column) => Math.max(...rows.map((row) => row[column].length)));
  for (const row of rows) {
    console.log(
      row
        .map((cell, column) => (column === 3 ? cell.padStart(widths[3]) : cell.padEnd(widths[column])))
        .join("  ")
        .trimEnd(),
    );
  }
  console.log(
    "Consumer: npm install of the client tarball, strict NodeNext compile, run against the simulator ✓",
  );
  const stages = times.map(([key, ms]) => `${key} ${seconds(ms)}`).join(", ");
  console.log(`Time: ${seconds(performance.now() - started)} (${stages})`);
} catch (error) {
  console.error(
    `\nRelease dry run FAILED at stage ${current}: ${error instanceof Error ? error.message : error}`,
  );
  process.exitCode = 1;
} finally {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
}
