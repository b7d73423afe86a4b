// Packs the package as npm would publish it, then checks the tarball with publint (package.json
// and exports) and @arethetypeswrong/cli (types resolve for every entry point under node10, node16 and
// bundler resolution). Run after `pnpm build`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const pkgDir = fileURLToPath(new URL("..", import.meta.url));
const out = mkdtempSync(join(tmpdir(), "platform-api-client-pack-"));
const run = (cmd, args) => {
  const result = spawnSync(cmd, args, { cwd: pkgDir, stdio: "inherit" });
  if (result.status !== 0) {
    rmSync(out, { recursive: true, force: true });
    process.exit(result.status ?? 1);
  }
};
try {
  // The pnpm that runs this script (npx or global), else the one on PATH.
  const pnpm = process.env.npm_execpath?.includes("pnpm")
    ? [process.execPath, process.env.npm_execpath]
    : ["pnpm"];
  run(pnpm[0], [...pnpm.slice(1), "pack", "--pack-destination", out]);
  const tarball = join(
    out,
    readdirSync(out).find((f) => f.endsWith(".tgz")),
  );
  run("publint", [tarball, "--strict"]);
  // attw's default profile, node10 included (typesVersions maps the subpaths' types). The package
  // is ESM only by design: a CommonJS require of it is flagged, and is not a target (README).
  run("attw", [tarball, "--ignore-rules", "cjs-resolves-to-esm"]);
} finally {
  rmSync(out, { recursive: true, force: true });
}
