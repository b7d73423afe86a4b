#!/usr/bin/env node
// Release dry run (`pnpm release:dry`): what a release would do, short of publishing, on a
// throw-away copy of the repository, so the working tree is never written to. Versions with
// changesets (checking they are the versions `pnpm pack:all` packs), builds, packs every
// workspace package, checks each tarball with publint and are-the-types-wrong, then installs
// every public tarball into a new npm project and proves each tool there: a client program
// compiles against the packed types and runs, through the packed `observe` proxy, against the
// packed simulator; the packed suite is conformant against that simulator and against its
// embedded one; `--target prism` without Prism is a one-line usage error.
// Stops at the first problem, naming the stage; every temp dir is removed at the end, on failure too.
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
import { plainEnv } from "./pack-all.mjs";
import { releaseVersions } from "./release-versions.mjs";

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

/**
 * Starts a long-running tool and resolves once a line of its output matches `ready` (with the
 * first group, and `stop(signal)` resolving to its exit code); rejects when it exits first or
 * says nothing within the timeout.
 */
function startBackground(what, [cmd, ...args], { ready, ...options }) {
  console.log(`$ ${what}`);
  return new Promise((resolve, reject) => {
    // A group of its own: npx runs the tool as a child, and a signal must reach the tool.
    const child = spawn(cmd, args, { stdio: ["ignore", "pipe", "inherit"], detached: true, ...options });
    const exited = new Promise((done) => child.once("exit", (code, signal) => done(code ?? signal)));
    const stop = (signal) => {
      if (child.exitCode === null && child.signalCode === null) process.kill(-child.pid, signal);
      return exited;
    };
    let output = "";
    const timer = setTimeout(() => {
      void stop("SIGKILL");
      reject(new Error(`\`${what}\` said nothing matching ${ready} within ${CONSUMER_TIMEOUT_MS / 1000} s`));
    }, CONSUMER_TIMEOUT_MS);
    child.stdout.on("data", (chunk) => {
      process.stdout.write(chunk);
      output += chunk;
      const match = ready.exec(output);
      if (match) {
        clearTimeout(timer);
        resolve({ match: match[1], stop });
      }
    });
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(new Error(`\`${what}\` could not start (${error.message})`));
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`\`${what}\` exited with ${code} before it was ready`));
    });
  });
}

/** What the consumer stage installs and proves, every one from its tarball. */
const CONSUMED = [
  "@platform-api/spec",
  "@platform-api/client",
  "@platform-api/simulator",
  "@platform-api/conformance",
];

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

  await stage("version", "version with changesets", async () => {
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
    // `pnpm pack:all` packs at the versions changesets computes from the working tree: this
    // release must publish those, or a tarball installed today would not be the release's.
    const packable = await releaseVersions(root);
    const differ = packages.filter((p) => !p.isPrivate && packable.get(p.name) !== p.after);
    if (differ.length > 0)
      throw new Error(
        `pnpm pack:all would pack ${differ.map((p) => `${p.name} ${packable.get(p.name)}, this release ${p.after}`).join("; ")}`,
      );
    console.log("The same versions as `pnpm pack:all` packs.");
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
      // attw's default profile, node10 included. Every package is ESM only by design, so a
      // CommonJS require is flagged and is not a target (the README says why).
      run(
        `attw ${p.tarball} --ignore-rules cjs-resolves-to-esm`,
        [join(bin, "attw"), p.tarball, "--ignore-rules", "cjs-resolves-to-esm"],
        { cwd: out },
      );
      p.checks.push("attw");
    }
  });

  await stage("consumer", "the packages from their tarballs alone, in a new npm project", async () => {
    const project = tempDir("consumer");
    cpSync(join(root, "scripts/release-dry"), project, { recursive: true });
    const manifest = { name: "release-dry-consumer", private: true, type: "module" };
    writeFileSync(join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    // npm, not pnpm: the way most consumers install; every dependency but ours comes from the
    // registry. Ours are not published yet, so every public tarball is installed together, and npm
    // takes each one where another asks for it, as the registry would serve it.
    const published = packages.filter((p) => !p.isPrivate);
    for (const name of CONSUMED)
      if (!published.some((p) => p.name === name))
        throw new Error(`${name} is not a public workspace package`);
    const tarballs = published.map((p) => p.tarball);
    run(
      `npm install ${tarballs.join(" ")}`,
      ["npm", "install", "--no-audit", "--no-fund", ...tarballs.map((t) => join(out, t))],
      { cwd: project, env: plainEnv() },
    );
    run("tsc -p tsconfig.json", [join(copy, "node_modules/.bin/tsc"), "-p", "."], { cwd: project });

    const installed = (name, file) => import(pathToFileURL(join(project, "node_modules", name, file)).href);
    const { DEFAULT_TOKENS } = await installed("@platform-api/simulator", "dist/index.js");
    const { DEFAULTS } = await installed("@platform-api/conformance", "dist/index.js");
    const env = plainEnv();
    const tokens = { GCORE_API_KEY: DEFAULT_TOKENS.client, GCORE_RESELLER_API_KEY: DEFAULT_TOKENS.reseller };
    // `--`: what follows is the tool's (`npx --version` alone is npm's own version).
    const npx = (...args) => ["npx", "--no", "--", ...args];

    for (const bin of ["platform-api-sim", "platform-api-conformance"]) {
      const owner = published.find((p) => Object.keys(p.manifest.bin ?? {}).includes(bin));
      const printed = run(`npx ${bin} --version`, npx(bin, "--version"), { cwd: project, env, quiet: true });
      if (printed.stdout.trim() !== owner?.after)
        throw new Error(
          `${bin} --version printed "${printed.stdout.trim()}", its package is ${owner?.after}`,
        );
    }

    const scale = String(DEFAULTS.simulatorTimeScale);
    const sim = await startBackground(
      `npx platform-api-sim --port 0 --time-scale ${scale}`,
      npx("platform-api-sim", "--port", "0", "--time-scale", scale),
      { cwd: project, env, ready: /simulator at (http:\/\/\S+)/ },
    );
    try {
      let observed;
      // The client's program, through observe's proxy to that simulator: three tools at once. The
      // bin itself, not through npx: npx ends by the Ctrl-C as well, and would hide observe's code.
      const observe = await startBackground(
        `node_modules/.bin/platform-api-conformance observe --upstream ${sim.match} --listen 127.0.0.1:0`,
        [
          join(project, "node_modules/.bin/platform-api-conformance"),
          "observe",
          "--upstream",
          sim.match,
          "--listen",
          "127.0.0.1:0",
          "--report",
          "observed",
        ],
        { cwd: project, env, ready: /Observing (http:\/\/\S+)/ },
      );
      try {
        await runAsync("node dist/consumer.js (through observe)", [process.execPath, "dist/consumer.js"], {
          cwd: project,
          env: { ...env, RELEASE_DRY_BASE_URL: observe.match, RELEASE_DRY_API_KEY: DEFAULT_TOKENS.client },
        });
      } finally {
        observed = await observe.stop("SIGINT");
      }
      const traffic = readJson(join(project, "observed/report.json")).traffic;
      if (observed !== 0 || !(traffic?.judged > 0))
        throw new Error(`observe exited ${observed} having judged ${traffic?.judged ?? 0} exchanges`);
      console.log(`observe: ${traffic.judged} exchanges judged, exit 0`);

      await runAsync(
        `npx platform-api-conformance --target ${sim.match} --time-scale ${scale} --allow-writes --allow-burst`,
        npx(
          "platform-api-conformance",
          "--target",
          sim.match,
          "--time-scale",
          scale,
          "--allow-writes",
          "--allow-burst",
          "--report",
          "url-run",
        ),
        { cwd: project, env: { ...env, ...tokens } },
      );
      // What only the simulator knows (a GPU flavor, a protection profile) reached the suite.
      const skipped = readJson(join(project, "url-run/report.json")).scenarios.filter(
        (s) => s.status === "skipped" && /gpu|profile/i.test(s.reason ?? ""),
      );
      if (skipped.length > 0)
        throw new Error(`skipped for want of the simulator's hints: ${skipped.map((s) => s.id).join(", ")}`);
    } finally {
      await sim.stop("SIGTERM");
    }

    await runAsync(
      "npx platform-api-conformance --allow-writes --allow-burst (embedded simulator)",
      npx("platform-api-conformance", "--allow-writes", "--allow-burst", "--report", "embedded-run"),
      { cwd: project, env },
    );

    // Prism is an optional peer, not installed here: one line saying what to install, exit 2.
    const prism = spawnSync(
      join(project, "node_modules/.bin/platform-api-conformance"),
      ["--target", "prism"],
      {
        cwd: project,
        env,
        encoding: "utf8",
      },
    );
    const said = `${prism.stdout}${prism.stderr}`.trim();
    console.log(`$ platform-api-conformance --target prism\n${said}`);
    if (prism.status !== 2 || said.split("\n").length !== 1 || !said.includes("@stoplight/prism-cli"))
      throw new Error(`--target prism without Prism exited ${prism.status ?? prism.signal} with:\n${said}`);
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
    "Consumer: npm install of every public tarball, strict NodeNext compile of a client program;",
    "\n  platform-api-sim started, the program run through `platform-api-conformance observe` to it,",
    "\n  the suite CONFORMANT against it (URL, with its hints) and embedded; --target prism exits 2 ✓",
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
