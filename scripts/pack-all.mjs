#!/usr/bin/env node
// `pnpm pack:all [folder] [--check]`: every public workspace package packed into one folder
// (default `packed/`), at the versions a release would publish (release-versions.mjs), so that
// `npm install ./packed/*.tgz` installs them before they are on the registry. Packs what the tree
// has built (`pnpm build` first, cached by turbo) from a temp copy whose manifests changesets has
// versioned: pnpm pack then writes the same versions, and the same dependency ranges between our
// packages, as a release would. `--check` then installs the folder's tarballs into a new npm
// project outside the repository and compiles release:dry's consumer program against them.
import { spawnSync } from "node:child_process";
import { cpSync, mkdirSync, mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { delimiter, dirname, join, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { versionedWorkspace } from "./release-versions.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

function run(what, [cmd, ...args], options = {}) {
  const result = spawnSync(cmd, args, { encoding: "utf8", stdio: "pipe", ...options });
  if (result.status === 0) return result;
  throw new Error(
    `\`${what}\` ${result.error ? `could not start (${result.error.message})` : `exited with ${result.status ?? result.signal}`}:\n${result.stdout ?? ""}${result.stderr ?? ""}`,
  );
}

/** The dependencies a manifest takes from the workspace (`workspace:` ranges). */
const workspaceDependencies = (manifest) =>
  Object.entries({ ...manifest.dependencies, ...manifest.peerDependencies, ...manifest.optionalDependencies })
    .filter(([, range]) => String(range).startsWith("workspace:"))
    .map(([name]) => name);

/**
 * Packs the public packages (those named in `only`, else all) into `out`, at the versions
 * changesets computes. Returns one record per tarball: name, version, tarball (its file name in `out`).
 */
export function packAll(root, out, { only } = {}) {
  mkdirSync(out, { recursive: true });
  const workspace = versionedWorkspace(root);
  try {
    const dirOf = new Map(workspace.packages.map((p) => [p.name, p.dir]));
    const chosen = workspace.packages.filter((p) => !p.isPrivate && (!only || only.includes(p.name)));
    const packed = [];
    for (const p of chosen) {
      const staged = join(workspace.dir, p.dir);
      // The built package beside its versioned manifest and changelog.
      const skipped = new Set(
        ["node_modules", "package.json", "CHANGELOG.md", ".turbo"].map((f) => join(root, p.dir, f)),
      );
      cpSync(join(root, p.dir), staged, {
        recursive: true,
        verbatimSymlinks: true,
        filter: (source) => !skipped.has(source),
      });
      // pnpm pack reads the version of a `workspace:` dependency from the package's node_modules.
      for (const name of workspaceDependencies(p.manifest)) {
        const link = join(staged, "node_modules", name);
        mkdirSync(dirname(link), { recursive: true });
        symlinkSync(join(workspace.dir, dirOf.get(name)), link, "dir");
      }
      const known = new Set(readdirSync(out));
      run(`pnpm pack (${p.dir})`, [join(root, "node_modules/.bin/pnpm"), "pack", "--pack-destination", out], {
        cwd: staged,
      });
      const tarball =
        readdirSync(out).find((file) => file.endsWith(".tgz") && !known.has(file)) ??
        `${p.name.replace("@", "").replace("/", "-")}-${p.after}.tgz`;
      packed.push({ name: p.name, version: p.after, tarball });
    }
    return packed;
  } finally {
    workspace.remove();
  }
}

/**
 * The environment of a consumer's shell, without what this repository adds: GCORE_* of whoever
 * runs it (a token of theirs must not stand in for one a program failed to pass), what `pnpm run`
 * sets (npm_* and PNPM_* variables, NODE_PATH, through which Node would find the workspace's
 * packages) and the workspace's node_modules/.bin folders on PATH.
 */
export function plainEnv() {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) => !key.startsWith("GCORE_") && !/^(npm_|pnpm_)/i.test(key) && key !== "NODE_PATH",
    ),
  );
  env.PATH = (process.env.PATH ?? "")
    .split(delimiter)
    .filter((dir) => !dir.includes(`${sep}node_modules${sep}`))
    .join(delimiter);
  return env;
}

/** `npm install <folder>/*.tgz` in a new project outside the repository, then tsc on release:dry's consumer program. */
export function checkConsumer(root, folder) {
  const project = mkdtempSync(join(tmpdir(), "platform-api-pack-consumer-"));
  try {
    cpSync(join(root, "scripts/release-dry"), project, { recursive: true });
    const manifest = { name: "pack-all-consumer", private: true, type: "module" };
    writeFileSync(join(project, "package.json"), `${JSON.stringify(manifest, null, 2)}\n`);
    const tarballs = readdirSync(folder)
      .filter((file) => file.endsWith(".tgz"))
      .map((file) => join(folder, file));
    console.log(`$ npm install ${folder}/*.tgz   (in ${project})`);
    run("npm install", ["npm", "install", "--no-audit", "--no-fund", ...tarballs], {
      cwd: project,
      env: plainEnv(),
    });
    console.log(
      "$ tsc -p .   (release:dry's consumer program, strict NodeNext, against the installed types)",
    );
    run("tsc -p .", [join(root, "node_modules/.bin/tsc"), "-p", "."], { cwd: project });
  } finally {
    rmSync(project, { recursive: true, force: true });
  }
}

function main(args) {
  const check = args.includes("--check");
  const folder = resolve(process.cwd(), args.find((a) => !a.startsWith("--")) ?? "packed");
  console.log("$ pnpm build");
  run("pnpm build", [join(ROOT, "node_modules/.bin/pnpm"), "build", "--output-logs=errors-only"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  // Tarballs of an earlier run would be installed beside these by `npm install <folder>/*.tgz`.
  mkdirSync(folder, { recursive: true });
  for (const file of readdirSync(folder)) if (file.endsWith(".tgz")) rmSync(join(folder, file));
  const packed = packAll(ROOT, folder);
  const width = Math.max(...packed.map((p) => p.name.length));
  for (const p of packed) console.log(`${p.name.padEnd(width)}  ${p.version}  ${p.tarball}`);
  console.log(
    `Packed in ${folder}, at the versions the next release would publish. Install them with:\n  npm install ${folder}/*.tgz`,
  );
  if (check) {
    checkConsumer(ROOT, folder);
    console.log("Consumer check passed: the tarballs install together and the client's types compile.");
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  try {
    main(process.argv.slice(2));
  } catch (error) {
    console.error(`pack:all failed: ${error instanceof Error ? error.message : error}`);
    process.exitCode = 1;
  }
}
