// The breaking-change gate: `redocly diff` (rules: diff-recommended, in redocly.yaml) rates every
// change between the last released description and the current bundle by the semver bump it
// requires. A change that needs a major bump fails unless info.version was bumped to match
// (redocly's --check-version). Minor and patch changes pass: the report names the version they
// call for, and `pnpm spec:release` records it when the packages are versioned.
//
//   node scripts/diff.mjs [--base <file>] [--revision <file>] [--markdown <file>]
//
// Exit codes: 0 passes, 1 a major change without a major bump, 2 the gate could not run.
import { spawnSync } from "node:child_process";
import { appendFileSync, existsSync, writeFileSync } from "node:fs";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { redoclyBin } from "./redocly-bin.mjs";

const specDir = fileURLToPath(new URL("..", import.meta.url));
export const RELEASED = join(specDir, "released/openapi.json");
export const BUNDLE = join(specDir, "dist/openapi.json");

function redoclyDiff(base, revision, extra) {
  return spawnSync(
    process.execPath,
    [redoclyBin(), "diff", base, revision, "--fail-on", "none", "--lint-config", "off", ...extra],
    {
      cwd: specDir,
      encoding: "utf8",
      env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
      timeout: 120_000,
    },
  );
}

/** The lines of redocly's own verdict (the rest of its stderr is timing and notices). */
function verdictLines(stderr) {
  return stderr
    .split("\n")
    .map((line) => line.trim())
    .filter((line) => line.startsWith("❌") || line.startsWith("✅"));
}

/**
 * Runs the gate and returns what to print and whether it passed; the tests call this directly.
 * @param {{ base?: string, revision?: string }} [files]
 */
export function runGate({ base = RELEASED, revision = BUNDLE } = {}) {
  for (const [missing, what, file, fix] of [
    ["released", "released description", base, "record it with `pnpm spec:release`"],
    ["bundle", "bundled description", revision, "build it with `pnpm bundle`"],
  ]) {
    if (!existsSync(file)) {
      return { status: 2, missing, markdown: "", messages: [`No ${what} at ${file}: ${fix}.`] };
    }
  }
  const json = redoclyDiff(base, revision, ["--format", "json"]);
  const start = json.stdout.indexOf("{");
  if (json.status !== 0 || start < 0) {
    return { status: 2, markdown: "", messages: [`redocly diff failed:\n${json.stderr || json.stdout}`] };
  }
  const report = JSON.parse(json.stdout.slice(start));
  const bump = report.bump ?? "none";
  const { base: was, revision: now } = report.infoVersions;

  // Only a major change is held to its version; --check-version decides whether the bump matches.
  const major = bump === "major";
  const md = redoclyDiff(base, revision, ["--format", "markdown", ...(major ? ["--check-version"] : [])]);
  const messages = verdictLines(md.stderr);
  const failed = major && md.status !== 0;
  // The version a minor or patch change calls for, by redocly's own reckoning (release.mjs writes
  // it). A major one is the author's to bump by hand (release.mjs writes none, no message names
  // it), so redocly is not run a third time for it: a Node process of a second.
  const next =
    bump === "none"
      ? was
      : major
        ? undefined
        : redoclyDiff(base, revision, ["--format", "next-version"]).stdout.trim();
  if (failed) {
    messages.push(
      `The spec has ${report.summary.major} breaking change(s) since the released ${was}. Either ` +
        "undo them, or bump info.version in spec/openapi.yaml to the next major and add a " +
        "changeset that says what breaks for clients.",
    );
  } else if (bump === "none") {
    messages.push(`No change to the API since the released ${was}.`);
  } else if (!major && was === now) {
    messages.push(
      `${report.summary.minor} minor and ${report.summary.patch} patch change(s), none breaking: ` +
        `the gate passes; the next release of the description is ${next || `a ${bump} bump`}.`,
    );
  } else {
    messages.push(`Changes since the released ${was} call for a ${bump} bump; info.version is ${now}.`);
  }
  // redocly prints an empty table when nothing changed; a sentence reads better in a CI log.
  const markdown = report.changes.length ? md.stdout : `## API diff\n\nNo changes since ${was}.\n`;
  return { status: failed ? 1 : 0, markdown, messages, bump, next, report };
}

function main() {
  const { values } = parseArgs({
    options: {
      base: { type: "string" },
      revision: { type: "string" },
      markdown: { type: "string" },
    },
  });
  const result = runGate({ base: values.base, revision: values.revision });
  const text = [result.markdown.trim(), "", ...result.messages.map((m) => `> ${m}`), ""].join("\n");
  console.log(text);
  if (values.markdown) writeFileSync(values.markdown, text);
  // In GitHub Actions the report also lands on the run's summary page.
  if (process.env.GITHUB_STEP_SUMMARY) appendFileSync(process.env.GITHUB_STEP_SUMMARY, text);
  if (result.status === 0) console.log(`Spec diff gate passed (${relative(process.cwd(), RELEASED)}).`);
  else console.error(result.status === 1 ? "Spec diff gate FAILED." : "Spec diff gate could not run.");
  process.exitCode = result.status;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) main();
