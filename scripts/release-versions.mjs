// The versions a release would publish, without writing the working tree: `releaseVersions` reads
// them from changesets' release plan in this process (what `pnpm release:dry` checks the release
// it rehearses against), and `versionedWorkspace` runs `changeset version` on a throw-away copy of
// the workspace's manifests (what `pnpm pack:all` packs, dependency ranges included), so that a
// tarball packed today and the release agree. pack-all's test compares the two.
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
} from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";

const readJson = (file) => JSON.parse(readFileSync(file, "utf8"));
// Changesets' own module, as the pinned CLI depends on it (changeset-check.mjs does the same).
const fromCli = createRequire(createRequire(import.meta.url).resolve("@changesets/cli/package.json"));
const getReleasePlan = fromCli("@changesets/get-release-plan").default;

/** The workspace's package folders, as pnpm-workspace.yaml lists them (spec, packages/*). */
export function workspaceDirs(root) {
  const dirs = ["spec", ...readdirSync(join(root, "packages")).map((dir) => `packages/${dir}`)];
  return dirs.filter((dir) => existsSync(join(root, dir, "package.json")));
}

/**
 * A temp workspace holding the root's manifest, pnpm-workspace.yaml, .changeset/ and each
 * package's package.json and CHANGELOG.md, versioned by `changeset version` (which needs neither
 * git nor the packages' sources). `packages`: one record per package (dir, name, isPrivate,
 * before, after, manifest); `remove()` deletes the folder.
 */
export function versionedWorkspace(root) {
  const dir = mkdtempSync(join(tmpdir(), "platform-api-release-versions-"));
  try {
    for (const file of ["package.json", "pnpm-workspace.yaml"]) cpSync(join(root, file), join(dir, file));
    if (existsSync(join(root, ".changeset")))
      cpSync(join(root, ".changeset"), join(dir, ".changeset"), { recursive: true });
    const dirs = workspaceDirs(root);
    for (const pkg of dirs) {
      mkdirSync(join(dir, pkg), { recursive: true });
      for (const file of ["package.json", "CHANGELOG.md"])
        if (existsSync(join(root, pkg, file))) cpSync(join(root, pkg, file), join(dir, pkg, file));
    }
    // The changelog generator the config names is resolved from the workspace's node_modules.
    symlinkSync(join(root, "node_modules"), join(dir, "node_modules"), "dir");
    const before = new Map(dirs.map((pkg) => [pkg, readJson(join(dir, pkg, "package.json")).version]));
    const pending = existsSync(join(dir, ".changeset"))
      ? readdirSync(join(dir, ".changeset")).filter((file) => file.endsWith(".md") && file !== "README.md")
      : [];
    if (pending.length > 0) {
      const result = spawnSync(join(root, "node_modules/.bin/changeset"), ["version"], {
        cwd: dir,
        encoding: "utf8",
      });
      if (result.status !== 0)
        throw new Error(
          `changeset version failed (${result.status ?? result.signal}):\n${result.stdout}${result.stderr}`,
        );
    }
    const packages = dirs.map((pkg) => {
      const manifest = readJson(join(dir, pkg, "package.json"));
      return {
        dir: pkg,
        name: manifest.name,
        isPrivate: manifest.private === true,
        before: before.get(pkg),
        after: manifest.version,
        manifest,
      };
    });
    return { dir, packages, remove: () => rmSync(dir, { recursive: true, force: true }) };
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
}

/**
 * Each package's name → the version a release would publish it at: the release plan changesets
 * makes of the pending changesets (the plan `changeset version` applies), read in this process.
 * `changeset version` on a copy gives the same versions but costs seconds of CPU: it asks git for
 * the commit of each changeset (a process per changeset) and formats every changelog, neither of
 * which changes a version. pack:all still packs from such a copy, so its test compares the two.
 */
export async function releaseVersions(root) {
  const plan = await getReleasePlan(root);
  const next = new Map(plan.releases.map((release) => [release.name, release.newVersion]));
  return new Map(
    workspaceDirs(root).map((dir) => {
      const { name, version } = readJson(join(root, dir, "package.json"));
      return [name, next.get(name) ?? version];
    }),
  );
}
