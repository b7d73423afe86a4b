// Builds the API reference into dist/ with Redocly's build-docs, then makes it work offline:
// build-docs loads the Redoc bundle from a CDN, so the same bundle (shipped inside the pinned
// @redocly/cli) is copied next to the page and referenced locally.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const docsDir = fileURLToPath(new URL("..", import.meta.url));
const distDir = join(docsDir, "dist");
const bundle = fileURLToPath(new URL("../../../spec/dist/openapi.json", import.meta.url));

const cliPkgPath = require.resolve("@redocly/cli/package.json");
const cliPkg = require(cliPkgPath);
const cliBin = join(dirname(cliPkgPath), typeof cliPkg.bin === "string" ? cliPkg.bin : cliPkg.bin.redocly);
const redocBundle = join(dirname(cliPkgPath), "lib", "chunks", "redoc.standalone.js");

if (!existsSync(bundle)) {
  console.error(`No bundled description at ${bundle}: run \`pnpm bundle\` first.`);
  process.exit(1);
}
if (!existsSync(redocBundle)) {
  console.error(`@redocly/cli ${cliPkg.version} no longer ships ${redocBundle}; update scripts/build.mjs.`);
  process.exit(1);
}

mkdirSync(distDir, { recursive: true });
const page = join(distDir, "index.html");
const run = spawnSync(
  process.execPath,
  [cliBin, "build-docs", bundle, "-o", page, "--title", "Platform API reference"],
  { cwd: docsDir, stdio: "inherit", env: { ...process.env, REDOCLY_TELEMETRY: "off" } },
);
if (run.status !== 0) process.exit(run.status ?? 1);

copyFileSync(redocBundle, join(distDir, "redoc.standalone.js"));
const integrity = `sha384-${createHash("sha384").update(readFileSync(redocBundle)).digest("base64")}`;
let html = readFileSync(page, "utf8");
const cdnUrl = /https:\/\/cdn\.redocly\.com\/redoc\/[^"']+\/redoc\.standalone\.js/g;
const found = html.match(cdnUrl) ?? [];
if (found.length === 0) {
  console.error("build-docs output no longer references the Redoc CDN bundle; update scripts/build.mjs.");
  process.exit(1);
}
html = html
  .replace(cdnUrl, "./redoc.standalone.js")
  .replace(/integrity="sha384-[^"]+"/g, `integrity="${integrity}"`);
const external = [...html.matchAll(/<(?:script|link)[^>]+(?:src|href)="(https?:\/\/[^"]+)"/g)].map(
  (m) => m[1],
);
if (external.length > 0) {
  console.error(`The page still loads from other origins: ${external.join(", ")}`);
  process.exit(1);
}
writeFileSync(page, html);
console.log(
  `API reference: ${page} (offline: the Redoc bundle of @redocly/cli ${cliPkg.version} is served beside it)`,
);
