// `conformance parity` as the CLI runs it, in-process: a small hand-made recording replayed against
// the embedded simulator (reports, figures, skipped writes, exit codes), and against a loopback
// server that shows what a replayed request carries (the command's key, never the recorded one).

import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingHttpHeaders } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { describe, expect, it } from "vitest";
import { createParityCommand, toParityOptions } from "../src/cli/parity-options.js";
import { runParity } from "../src/parity/command.js";
import type { ParityReport } from "../src/parity/report.js";
import { loopbackServers } from "./loopback-servers.js";
import { tokenPrefix } from "./token-prefix.js";

const SMALL = fileURLToPath(new URL("fixtures/parity-small.har", import.meta.url));
const servers = loopbackServers();

/** The command line as commander reads it, run in-process; its lines and report folder. */
async function parity(args: string[], env: Record<string, string> = {}, signal?: AbortSignal) {
  const command = createParityCommand()
    .exitOverride()
    .configureOutput({ writeErr: () => {}, writeOut: () => {} });
  const cwd = mkdtempSync(join(tmpdir(), "parity-cli-"));
  command.parse(args, { from: "user" });
  const lines: string[] = [];
  const result = await runParity(toParityOptions(command.opts()), {
    cwd,
    env,
    // Colour is on wherever picocolors thinks the terminal takes it (CI=true is enough): the lines
    // are compared as the reader sees them.
    write: (line) => lines.push(stripVTControlCharacters(line)),
    notice: (line) => lines.push(stripVTControlCharacters(line)),
    ...(signal ? { signal } : {}),
  });
  return { ...result, lines, cwd };
}

describe("conformance parity against the embedded simulator", () => {
  it("replays the reads, skips and names the write, and reports per operation and overall", async () => {
    const { exitCode, lines, cwd, report } = await parity(["--har", SMALL, "--report", "out"]);
    expect(exitCode).toBe(0);
    expect(lines).toContain(
      "skipped write: entry 2 POST /cloud/v1/volumes/1/76 (createVolume); --allow-writes sends it",
    );
    const written = JSON.parse(readFileSync(join(cwd, "out", "parity.json"), "utf8")) as ParityReport;
    expect(written).toEqual(report);
    expect(written).toMatchObject({
      entries: 5,
      compared: 3,
      identical: 1,
      parity: 33.3,
      skipped: { "a write": 1, "not in the spec": 1 },
    });
    const byId = Object.fromEntries(written.operations.map((o) => [o.operationId, o]));
    expect(byId.listProjects).toMatchObject({ compared: 1, identical: 1, differences: [] });
    expect(byId.listRegions?.differences).toContainEqual({
      path: "results[].ddos_endpoint_id",
      what: "missing in simulator",
      count: 1,
    });
    expect(byId.getTask?.differences).toEqual([{ path: "(status)", what: "status 200 vs 404", count: 1 }]);
    expect(readFileSync(join(cwd, "out", "parity.md"), "utf8")).toContain(
      "| `results[].ddos_endpoint_id` | missing in simulator | 1/1 |",
    );
    expect(lines.at(-2)).toMatch(
      /^Parity 33\.3%: 1 of 3 exchanges identical in shape; not replayed: 1 writes/,
    );
  });

  it("exits 1 under --fail-under when parity is below it, 0 at or above", async () => {
    expect((await parity(["--har", SMALL, "--fail-under", "50"])).exitCode).toBe(1);
    expect((await parity(["--har", SMALL, "--fail-under", "33"])).exitCode).toBe(0);
  });

  it("caps what it replays with --max-entries, and counts the rest", async () => {
    const { report } = await parity(["--har", SMALL, "--max-entries", "1"]);
    expect(report).toMatchObject({ compared: 1, skipped: { "over the cap": 2 } });
  });

  it("sends nothing more once interrupted, writes the report of what was replayed, and exits 130", async () => {
    const interrupt = new AbortController();
    interrupt.abort("SIGINT");
    const { exitCode, report, lines } = await parity(["--har", SMALL], {}, interrupt.signal);
    expect(exitCode).toBe(130);
    expect(report).toMatchObject({ compared: 0, interrupted: true });
    expect(lines.join("\n")).toContain("(interrupted: the rest was not sent)");
  });

  it("exits 2 with a line for a file that is no HAR, and for a recording with nothing to replay", async () => {
    const dir = mkdtempSync(join(tmpdir(), "parity-bad-"));
    const notHar = join(dir, "not.har");
    writeFileSync(notHar, "{ nope");
    const bad = await parity(["--har", notHar]);
    expect(bad.exitCode).toBe(2);
    expect(bad.lines.join("\n")).toMatch(/conformance parity: --har .*not JSON/);
    const writesOnly = join(dir, "writes.har");
    const har = JSON.parse(readFileSync(SMALL, "utf8"));
    har.log.entries = har.log.entries.filter(
      (e: { request: { method: string } }) => e.request.method === "POST",
    );
    writeFileSync(writesOnly, JSON.stringify(har));
    const nothing = await parity(["--har", writesOnly]);
    expect(nothing.exitCode).toBe(2);
    expect(nothing.lines.join("\n")).toContain("nothing to replay: 1 entries: 1 a write");
  });
});

describe("conformance parity against a URL target", () => {
  it("sends the recorded path and query with the key of --api-key-env, never the recorded credentials", async () => {
    const seen: { url: string | undefined; headers: IncomingHttpHeaders }[] = [];
    const url = await servers.listen(
      createServer((req, res) => {
        seen.push({ url: req.url, headers: req.headers });
        res.setHeader("content-type", "application/json");
        res.end(JSON.stringify({ count: 0, results: [] }));
      }),
    );
    const { exitCode } = await parity(["--har", SMALL, "--target", url, "--api-key-env", "PARITY_KEY"], {
      PARITY_KEY: "77$parity-test-key",
    });
    expect(exitCode).toBe(0);
    expect(seen.map((s) => s.url)).toEqual([
      "/cloud/v1/regions?limit=2",
      "/cloud/v1/projects",
      "/cloud/v1/tasks/00000000-0000-4000-8000-000000000000",
    ]);
    for (const s of seen) expect(s.headers.authorization).toBe(`${tokenPrefix}77$parity-test-key`);
  });
});
