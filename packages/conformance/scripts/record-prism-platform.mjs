// Records test/fixtures/prism-platform.har: the reads of our spec's operations, answered by Prism
// (a server this project did not write) mocking the platform's own published API descriptions, in
// dynamic mode: every value is generated from the platform's schemas, none is the platform's
// example text. The parity tests replay it against the embedded simulator, so what they find is
// drift from what the platform documents, not from what we wrote down about it.
//
// The platform's documentation repository is not in CI, and its text must not enter this project:
// only the operations' paths and the schemas they reference are extracted, every description,
// summary, title, example and default stripped, into a temporary file that is deleted afterwards.
// Run it again (with the mirror at hand) to refresh the fixture; the test needs only the fixture.
//
//   node packages/conformance/scripts/record-prism-platform.mjs <bare-git-dir> [commit]
//
// Needs the packages built (pnpm build): it records through `conformance observe`'s recorder and
// reads the embedded simulator's ids, so the replay asks the simulator for what it holds.

import { execFileSync, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parse } from "yaml";

const here = dirname(fileURLToPath(import.meta.url));
const packageRoot = resolve(here, "..");
const OUT = resolve(packageRoot, "test/fixtures/prism-platform.har");
const SOURCE_REPO = "G-Core/product-documentation";
const FOLDER = "api-reference/services_docs_mintlify";
const FILES = [
  "cloud_api.yaml",
  "iam_api.yaml",
  "streaming_api.yaml",
  "ddos_protection_api.yaml",
  "object_storage_api.yaml",
  "cloud_reseller_api.yaml",
];
/** Keywords of platform prose or platform values: never copied, whatever schema holds them. */
const STRIPPED = new Set([
  "description",
  "summary",
  "title",
  "example",
  "examples",
  "default",
  "externalDocs",
  "tags",
]);
/** The type of Prism's own failure answers (a generator's error, not the platform's). */
const PRISM_FAILURE = "stoplight.io/prism/errors#UNKNOWN";
/** Keywords whose value maps names to schemas: their keys are field names, kept whatever they are. */
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "definitions"]);

const [gitDir, commit = "5b666307cd89d0bb047dd97c3b4a632ac9de1ac4"] = process.argv.slice(2);
if (!gitDir) {
  console.error(
    "usage: node scripts/record-prism-platform.mjs <bare git dir of G-Core/product-documentation> [commit]",
  );
  process.exit(2);
}

const require = createRequire(import.meta.url);
const { authorization, loadModel, tokenScheme } = await import("@platform-api/spec");
const { startSimulator } = await import("@platform-api/simulator");
const { startObserving } = await import(resolve(packageRoot, "dist/traffic/commands.js"));

// Our spec's reads: the paths to extract and to call.
const reads = loadModel().operations.filter((o) => o.method === "get");

/** The mocked description: our reads' path items from whichever platform file has them. */
const doc = {
  openapi: "3.1.0",
  info: { title: "extract", version: commit.slice(0, 12) },
  paths: {},
  components: {},
};
const found = new Map();
for (const file of FILES) {
  const prefix = file.replace(/_api\.yaml$/, "").replace(/\W/g, "_");
  const source = parse(
    execFileSync("git", ["--git-dir", gitDir, "show", `${commit}:${FOLDER}/${file}`], {
      encoding: "utf8",
      maxBuffer: 64 * 2 ** 20,
    }),
  );
  const wanted = [];
  for (const operation of reads) {
    if (found.has(operation.operationId)) continue;
    const item = source.paths?.[operation.path];
    if (!item?.get) continue;
    found.set(operation.operationId, file);
    const get = item.get;
    const responses = Object.fromEntries(
      Object.entries(get.responses ?? {}).filter(([status]) => status.startsWith("2")),
    );
    const parameters = [...(item.parameters ?? []), ...(get.parameters ?? [])];
    wanted.push([operation.path, { get: { operationId: operation.operationId, parameters, responses } }]);
  }
  // Every component the extracted operations reach, under a name of this file (the files share names).
  const copied = new Set();
  const copy = (node) => {
    if (Array.isArray(node)) return node.map(copy);
    if (node === null || typeof node !== "object") return node;
    const out = {};
    for (const [key, value] of Object.entries(node)) {
      if (key === "$ref" && typeof value === "string") {
        const match = /^#\/components\/([^/]+)\/(.+)$/.exec(value);
        if (!match) throw new Error(`${file}: a $ref outside components (${value}) is not followed`);
        const [, kind, name] = match;
        const renamed = `${prefix}_${name}`;
        if (!copied.has(`${kind}/${name}`)) {
          copied.add(`${kind}/${name}`);
          doc.components[kind] ??= {};
          doc.components[kind][renamed] = copy(source.components[kind][name]);
        }
        out.$ref = `#/components/${kind}/${renamed}`;
      } else if (NAME_MAPS.has(key) && value && typeof value === "object") {
        out[key] = Object.fromEntries(Object.entries(value).map(([name, schema]) => [name, copy(schema)]));
      } else if (STRIPPED.has(key) || key.startsWith("x-")) {
        // Prose and the platform's own values: left behind.
      } else out[key] = copy(value);
    }
    // Documented fields only: json-schema-faker otherwise invents extra keys for an object that
    // does not close itself, and parity would count each invented key as drift.
    if (out.properties && out.additionalProperties === undefined) out.additionalProperties = false;
    return out;
  };
  for (const [path, item] of wanted) doc.paths[path] = copy(item);
}
// OpenAPI asks every response for a description: an empty one, no platform text.
for (const item of Object.values(doc.paths))
  for (const response of Object.values(item.get.responses)) if (!response.$ref) response.description = "";
for (const response of Object.values(doc.components.responses ?? {})) response.description = "";

const missing = reads.filter((o) => !found.has(o.operationId)).map((o) => `${o.operationId} (${o.path})`);
if (missing.length) console.warn(`not in the platform's files: ${missing.join(", ")}`);

const work = mkdtempSync(join(tmpdir(), "prism-platform-"));
const specFile = join(work, "platform-extract.json");
writeFileSync(specFile, JSON.stringify(doc));

// What the embedded simulator holds (seed 1, as a parity run starts it), so the replay reads it.
const sim = await startSimulator({ port: 0, env: {} });
const tasks = await (
  await fetch(`${sim.url}/cloud/v1/tasks`, {
    headers: { authorization: authorization(tokenScheme(loadModel(), "APIKey"), sim.apiKey) },
  })
).json();
await sim.close();
const values = { project_id: 1, region_id: 76, id: 4211, task_id: tasks.results[0].id };

const prism = await startPrism(specFile);
const recording = join(work, "recording.har");
const observing = await startObserving({
  upstream: prism.url,
  record: recording,
  host: "127.0.0.1",
  port: 0,
  env: {},
});
try {
  for (const operation of reads) {
    if (!found.has(operation.operationId)) continue;
    const path = operation.path.replace(/\{([^}]+)\}/g, (_, name) =>
      encodeURIComponent(String(values[name])),
    );
    // json-schema-faker sometimes fails on a large schema (Prism answers 500 with its TypeError);
    // another draw usually passes. The failed draws are dropped from the recording below.
    let answer;
    for (let attempt = 1; attempt <= 10; attempt++) {
      answer = await fetch(`${observing.url}${path}`, {
        headers: {
          authorization: authorization(tokenScheme(loadModel(), "APIKey"), "1$recording-token"),
          accept: "application/json",
        },
        signal: AbortSignal.timeout(30_000),
      });
      await answer.arrayBuffer();
      if (answer.status < 500) break;
    }
    console.log(`${operation.operationId}: ${answer.status}`);
  }
} finally {
  await observing.stop();
  await prism.close();
}

const har = JSON.parse(readFileSync(recording, "utf8"));
const sources = `${SOURCE_REPO}@${commit}: ${FOLDER}/{${[...new Set(found.values())].join(",")}}`;
har.log.creator = {
  name: "platform-api-conformance scripts/record-prism-platform.mjs",
  version: `prism ${require(require.resolve("@stoplight/prism-cli/package.json", { paths: [dirname(require.resolve("@platform-api/spec/package.json"))] })).version} -d`,
  comment: `Prism in dynamic mode on the paths of the platform-api spec's reads extracted from ${sources} (descriptions, examples and defaults stripped): every value is generated from those schemas.`,
};
har.log.comment = `Source: https://github.com/${SOURCE_REPO} at commit ${commit}, files ${[...new Set(found.values())].map((f) => `${FOLDER}/${f}`).join(", ")}. Regenerate with packages/conformance/scripts/record-prism-platform.mjs.`;
har.log.entries = har.log.entries.filter((e) => !(e.response.content.text ?? "").includes(PRISM_FAILURE));
for (const entry of har.log.entries) {
  // The mock's port changes every run; the recording names the platform it stands for.
  entry.request.url = entry.request.url.replace(/^http:\/\/127\.0\.0\.1:\d+/, "https://api.gcore.com");
  entry.request.headers = entry.request.headers.filter((h) => /^(accept|authorization)$/i.test(h.name));
  entry.response.headers = entry.response.headers.filter((h) => /^(content-type|retry-after)$/i.test(h.name));
}
writeFileSync(OUT, `${JSON.stringify(har, null, 2)}\n`);
rmSync(work, { recursive: true, force: true });
console.log(`wrote ${OUT} (${har.log.entries.length} entries)`);

async function startPrism(spec) {
  const specDir = dirname(require.resolve("@platform-api/spec/package.json"));
  const pkgPath = require.resolve("@stoplight/prism-cli/package.json", { paths: [specDir] });
  const pkg = require(pkgPath);
  const bin = join(dirname(pkgPath), typeof pkg.bin === "string" ? pkg.bin : pkg.bin.prism);
  const port = await freePort();
  const child = spawn(process.execPath, [bin, "mock", "-d", spec, "-h", "127.0.0.1", "-p", String(port)], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  await new Promise((ready, fail) => {
    const timer = setTimeout(() => fail(new Error(`Prism did not start:\n${output}`)), 120_000);
    const onData = (chunk) => {
      output += chunk;
      if (/Prism is listening/.test(output)) {
        clearTimeout(timer);
        ready();
      }
    };
    child.stdout.on("data", onData);
    child.stderr.on("data", onData);
    child.once("exit", (code) => fail(new Error(`Prism exited (${code}):\n${output}`)));
  });
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((done) => {
        if (child.exitCode !== null) return done();
        child.once("exit", done);
        child.kill("SIGTERM");
      }),
  };
}

function freePort() {
  return new Promise((done, fail) => {
    const probe = createServer();
    probe.once("error", fail);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => done(port));
    });
  });
}
