// A HAR whose URLs are megabytes long (a client that put a whole document in a query) is judged,
// and its evidence is bounded as bodies are: a path is cut and says so ("… (cut: N characters in
// all)"), in the evidence, in each problem and in the examples of undescribed operations, so a
// 5 MB URL cannot make a report of megabytes. The HAR is written here, a few MB.

import { mkdtempSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operationById } from "@platform-api/spec";
import { expect, it } from "vitest";
import { specModel } from "../src/facts/spec.js";
import { runVerify } from "../src/traffic/commands.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const REGIONS = operationById(model, "listRegions").path;
const LONG = 5 * 1024 * 1024;

const entry = (url: string, status: number, text: string) => ({
  startedDateTime: "2026-11-24T10:00:00.000Z",
  time: 3,
  request: {
    method: "GET",
    url,
    headers: [{ name: "Authorization", value: `${tokenPrefix}3051$long-url-test-key` }],
  },
  response: {
    status,
    headers: [{ name: "content-type", value: "application/json" }],
    content: { mimeType: "application/json", text },
  },
});

it("a 5 MB URL makes a report of kilobytes, its paths cut and saying so", async () => {
  const dir = mkdtempSync(join(tmpdir(), "verify-long-urls-"));
  const har = join(dir, "long.har");
  const filler = "a".repeat(LONG);
  writeFileSync(
    har,
    JSON.stringify({
      log: {
        entries: [
          // A described list whose answer breaks its schema: failing evidence and problems.
          entry(`https://api.example.com${REGIONS}?name=${filler}`, 200, '{"count":"many"}'),
          // An undescribed path: counted and named among the examples.
          entry(`https://api.example.com/not/described/${filler}`, 200, "{}"),
        ],
      },
    }),
  );
  const lines: string[] = [];
  const result = await runVerify(
    { har, report: join(dir, "report"), strict: false },
    { write: (line) => lines.push(line), env: {} },
  );
  expect(result.exitCode).toBe(1);
  const json = join(dir, "report", "report.json");
  expect(statSync(json).size).toBeLessThan(256 * 1024);
  const text = readFileSync(json, "utf8");
  expect(text).toContain(`(cut: ${`${REGIONS}?name=`.length + LONG} characters in all)`);
  for (const f of ["report.md", "report.html", "junit.xml"])
    expect(statSync(join(dir, "report", f)).size, f).toBeLessThan(512 * 1024);
  expect(lines.join("\n").length).toBeLessThan(64 * 1024);
}, 120_000);
