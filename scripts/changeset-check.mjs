// The release gate (`pnpm changeset:check`): every workspace package changed since the base must be
// named by a changeset added since the base, unless its change touches only tests or docs
// (`changedFilePatterns` in .changeset/config.json says which files count). An empty changeset
// (`changeset add --empty`) states that the change needs no release.
//
// `changeset status`'s release plan is read back: status already fails when packages changed and
// no changeset at all was added, but passes when one changeset covers a single package of several
// that changed; this script holds every changed package to its own entry. The plan is the one
// status writes (changesets' getReleasePlan, run in this process); status itself runs, as a process
// of its own, whenever it could fail, so that its own words are printed.
//
//   node scripts/changeset-check.mjs [--since <git ref>] [--cwd <repository>]
//
// The base is --since, else $CHANGESET_SINCE (a pull request's target, e.g. origin/main), else the
// newest release tag (`<package>@<version>`, as `changeset tag` writes them), else the first commit.
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const require = createRequire(import.meta.url);
const cliPackage = require.resolve("@changesets/cli/package.json");
// Changesets' own modules (dependencies of the pinned CLI), so that "changed" means what it means
// to `changeset status`, patterns included.
const fromCli = createRequire(cliPackage);
const { getChangedPackagesSinceRef } = fromCli("@changesets/git");
const { read: readConfig } = fromCli("@changesets/config");
const { getPackages } = fromCli("@manypkg/get-packages");
const getReleasePlan = fromCli("@changesets/get-release-plan").default;
/** The pinned changesets CLI entry (run it with `node`). */
export const changesetBin = join(cliPackage, "..", require(cliPackage).bin.changeset);

function git(cwd, args) {
  const result = spawnSync("git", args, { cwd, encoding: "utf8" });
  return result.status === 0 ? result.stdout.trim() : undefined;
}

// biome-ignore lint/suspicious/noUndeclaredEnvVars: set by CI for this script, never read in a turbo task.
export function findBase(cwd, since = process.env.CHANGESET_SINCE) {
  if (since) return { ref: since, why: "given" };
  const tag = git(cwd, ["describe", "--tags", "--abbrev=0", "--match", "*@[0-9]*"]);
  if (tag) return { ref: tag, why: "the newest release tag" };
  const [first] = (git(cwd, ["rev-list", "--max-parents=0", "HEAD"]) ?? "").split("\n");
  return { ref: first, why: "no release yet: the first commit" };
}

/** Checks the repository at `cwd`; returns what to print and whether it passed. */
export async function checkChangesets({ cwd = process.cwd(), since } = {}) {
  const base = findBase(cwd, since);
  if (!base.ref || !git(cwd, ["rev-parse", "--verify", `${base.ref}^{commit}`])) {
    return { ok: false, lines: [`The base "${base.ref}" is not a commit of this repository.`] };
  }
  const lines = [`Changes since ${base.ref} (${base.why}).`];
  const packages = await getPackages(cwd);
  const config = await readConfig(cwd, packages);
  const changed = await getChangedPackagesSinceRef({
    cwd,
    ref: base.ref,
    changedFilePatterns: config.changedFilePatterns,
  });
  const status = await statusOf({ cwd, root: packages.root.dir, ref: base.ref, config, changed });
  if (status.output) lines.push(status.output);
  const { plan } = status;
  const named = new Set(plan.changesets.flatMap((c) => c.releases.map((r) => r.name)));
  const empty = plan.changesets.filter((c) => c.releases.length === 0).map((c) => c.id);
  const ignored = new Set(config.ignore);
  const missing = changed
    .map((p) => p.packageJson.name)
    .filter((name) => !ignored.has(name) && !named.has(name));
  for (const name of changed.map((p) => p.packageJson.name).sort()) {
    lines.push(`  ${named.has(name) ? "✓" : ignored.has(name) ? "-" : "✗"} ${name}`);
  }
  if (changed.length === 0) lines.push("  No package changed beyond tests and docs.");
  if (missing.length && empty.length) {
    lines.push(`Empty changeset ${empty.join(", ")}: no release needed for ${missing.join(", ")}.`);
    return { ok: true, lines };
  }
  if (missing.length) {
    lines.push(
      `${missing.join(", ")} changed without a changeset. Run \`pnpm changeset\` and describe the change ` +
        "for its users (or `pnpm changeset --empty` when it needs no release).",
    );
    return { ok: false, lines };
  }
  return { ok: true, lines };
}

/**
 * What `changeset status --since=<ref>` gives: its release plan, and what it printed when it
 * failed. Status fails only when changed packages have no changeset at all (or on an error of its
 * own, such as a changeset it cannot read); short of that its plan is changesets' getReleasePlan,
 * read here without a process of changesets' CLI (most of this check's CPU). Whenever status could
 * fail it runs as CI would run it, so its own words are printed as they are.
 */
async function statusOf({ cwd, root, ref, config, changed }) {
  if (existsSync(join(root, ".changeset"))) {
    const plan = await getReleasePlan(root, ref, config).catch(() => undefined);
    if (plan && (changed.length === 0 || plan.changesets.length > 0)) return { plan };
  }
  const out = mkdtempSync(join(tmpdir(), "changeset-check-"));
  try {
    const status = spawnSync(
      process.execPath,
      [changesetBin, "status", `--since=${ref}`, `--output=${join(out, "plan.json")}`],
      { cwd, encoding: "utf8" },
    );
    if (status.status === 0) return { plan: JSON.parse(readFileSync(join(out, "plan.json"), "utf8")) };
    return { plan: { changesets: [] }, output: (status.stdout + status.stderr).trim() };
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const { values } = parseArgs({ options: { since: { type: "string" }, cwd: { type: "string" } } });
  const result = await checkChangesets({ cwd: values.cwd, since: values.since });
  for (const line of result.lines) console.log(line);
  console.log(result.ok ? "Changeset check passed." : "Changeset check FAILED.");
  process.exitCode = result.ok ? 0 : 1;
}
