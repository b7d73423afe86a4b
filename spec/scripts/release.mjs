// Records a release of the description: the baseline the breaking-change gate compares against.
// Runs when the packages are versioned (`pnpm release:version`, after `changeset version`):
//   1. if the changes since the last release call for a higher info.version than the source says
//      (minor and patch changes pass the gate without a bump), write that version into
//      openapi.yaml, keeping its comments and layout, and bundle again;
//   2. copy the bundle to released/openapi.json.
// A breaking change without a major bump stops here, as it does in CI.
import { spawnSync } from "node:child_process";
import { copyFileSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseDocument } from "yaml";
import { BUNDLE, RELEASED, runGate } from "./diff.mjs";

const specDir = fileURLToPath(new URL("..", import.meta.url));
const source = join(specDir, "openapi.yaml");

function bundle() {
  const pnpm = process.env.npm_execpath?.includes("pnpm")
    ? [process.execPath, process.env.npm_execpath]
    : ["pnpm"];
  const run = spawnSync(pnpm[0], [...pnpm.slice(1), "run", "bundle"], { cwd: specDir, stdio: "inherit" });
  if (run.status !== 0) throw new Error("Bundling the description failed; see the output above.");
}

/** "1.2.3" → [1, 2, 3]; the description's versions are plain semver. */
const parts = (version) => version.split(".").map(Number);
const isLower = (a, b) => {
  const [x, y] = [parts(a), parts(b)];
  for (let i = 0; i < 3; i++) if (x[i] !== y[i]) return x[i] < y[i];
  return false;
};

bundle();
const gate = runGate();
for (const message of gate.messages) console.log(message);
if (gate.status === 2) {
  // No baseline yet: this bundle becomes the first released description.
  if (gate.missing !== "released") process.exit(2);
} else if (gate.status !== 0) {
  process.exit(1);
} else if (gate.bump && gate.bump !== "none") {
  const { base, revision } = gate.report.infoVersions;
  const { next } = gate;
  if (gate.bump !== "major" && next && isLower(revision, next)) {
    // Replace only the version's characters: re-serialising would reflow the whole file.
    const text = readFileSync(source, "utf8");
    const [start, end] = parseDocument(text).getIn(["info", "version"], true).range;
    writeFileSync(source, `${text.slice(0, start)}${next}${text.slice(end)}`);
    console.log(`info.version ${revision} → ${next} (${gate.bump} changes since ${base}).`);
    bundle();
  }
}
mkdirSync(dirname(RELEASED), { recursive: true });
copyFileSync(BUNDLE, RELEASED);
console.log(`Released description recorded: ${RELEASED}`);
