// `pnpm bench:verify`: how long `conformance verify --har` takes on a recording whose every
// exchange carries a token of its own (a client that rotates its token per request), against the
// same number of exchanges with one token. Redaction must cost the same per exchange whatever the
// number of tokens seen before: the two times should be close. Runs the built CLI (dist/) as a
// user would, on a HAR written here; exits non-zero only when verify fails to run.

import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import { authorization, loadModel, operationById, tokenScheme } from "@platform-api/spec";

const EXCHANGES = 300;
const BASE = "https://api.example.com";
const MODEL = loadModel();
const REGIONS = operationById(MODEL, "listRegions");
if (REGIONS.pagination?.style !== "offset") throw new Error("listRegions is no offset list in the spec");
const { countField, itemsField } = REGIONS.pagination;
const CLI = new URL("../dist/cli.js", import.meta.url).pathname;

const token = (i) => `${1000 + i}$${i.toString(16).padStart(8, "0")}c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7`;

function har(distinct) {
  const entries = Array.from({ length: EXCHANGES }, (_, i) => ({
    startedDateTime: new Date(Date.UTC(2026, 10, 23, 10, 0, 0, i * 200)).toISOString(),
    time: 5,
    request: {
      method: "GET",
      url: `${BASE}${REGIONS.path}?limit=1&offset=${i}`,
      headers: [
        {
          name: "Authorization",
          value: authorization(tokenScheme(loadModel(), "APIKey"), token(distinct ? i : 0)),
        },
      ],
    },
    response: {
      status: 200,
      headers: [{ name: "Content-Type", value: "application/json" }],
      content: {
        mimeType: "application/json",
        text: JSON.stringify({
          [countField]: EXCHANGES,
          [itemsField]: [{ id: i, display_name: `region ${i}` }],
        }),
      },
    },
  }));
  return JSON.stringify({ log: { version: "1.2", entries } });
}

const dir = mkdtempSync(join(tmpdir(), "bench-verify-"));
const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}`;
console.log(`machine: ${machine}`);
let failed = false;
try {
  for (const distinct of [false, true]) {
    const file = join(dir, distinct ? "distinct.har" : "one.har");
    writeFileSync(file, har(distinct));
    const started = performance.now();
    const run = spawnSync(
      process.execPath,
      [CLI, "verify", "--har", file, "--base-url", BASE, "--report", join(dir, "report")],
      { env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" }, encoding: "utf8", timeout: 600_000 },
    );
    const seconds = (performance.now() - started) / 1000;
    if (run.status !== 0 && run.status !== 1) {
      failed = true;
      console.error(`verify exited ${run.status ?? run.signal}:\n${run.stdout}${run.stderr}`);
    }
    console.log(
      `verify of ${EXCHANGES} exchanges, ${distinct ? `${EXCHANGES} distinct tokens` : "one token"}: ${seconds.toFixed(2)} s`,
    );
  }
} finally {
  rmSync(dir, { recursive: true, force: true });
}
if (failed) process.exitCode = 1;
