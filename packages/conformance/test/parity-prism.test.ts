// Parity of the embedded simulator with a recording from a server this project did not write:
// Prism in dynamic mode on the platform's own published descriptions (fixtures/prism-platform.har,
// made by scripts/record-prism-platform.mjs; its log says the source repository, files and commit).
// What the report must list is computed here from the fixture and from the simulator's own answers,
// so the test fails if the comparison stops finding what is there.

import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { startSimulator } from "@platform-api/simulator";
import { loadBundle, matchOperation } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/cli/options.js";
import { specModel } from "../src/facts/spec.js";
import { readHar } from "../src/http/har.js";
import { runParity } from "../src/parity/command.js";
import { PARITY_DEFAULTS } from "../src/parity/options.js";
import { shapeOf } from "../src/parity/shape.js";
import { tokenPrefix } from "./token-prefix.js";

const FIXTURE = fileURLToPath(new URL("fixtures/prism-platform.har", import.meta.url));

describe("parity of the embedded simulator with Prism on the platform's descriptions", () => {
  it("lists each field the recording holds and the simulator's answer lacks, as missing in simulator", async () => {
    const lines: string[] = [];
    const { exitCode, report } = await runParity(
      {
        har: FIXTURE,
        target: "simulator",
        apiKeyEnv: DEFAULTS.apiKeyEnv,
        resellerApiKeyEnv: DEFAULTS.resellerApiKeyEnv,
        allowWrites: false,
        maxEntries: PARITY_DEFAULTS.maxEntries,
        report: "out",
        rateLimit: DEFAULTS.rateLimit,
      },
      {
        cwd: mkdtempSync(join(tmpdir(), "parity-prism-")),
        env: {},
        write: (l) => lines.push(l),
        notice: () => {},
      },
    );
    expect(exitCode).toBe(0);
    if (!report) throw new Error(`no report:\n${lines.join("\n")}`);

    // The same answers the replay got: the simulator starts from the same seeded world.
    const { exchanges } = await readHar(FIXTURE);
    const sim = await startSimulator({ port: 0, env: {} });
    let checked = 0;
    try {
      for (const recorded of exchanges) {
        const match = matchOperation(specModel(), recorded.method, recorded.url.split("?")[0] ?? "");
        if (!match || recorded.status !== 200) continue;
        const answer = await fetch(`${sim.url}${recorded.url}`, {
          headers: {
            authorization: `${tokenPrefix}${match.operation.security.includes("ResellerAPIKey") ? sim.resellerApiKey : sim.apiKey}`,
          },
        });
        if (answer.status !== 200) continue;
        const theirs = shapeOf({
          status: 200,
          headers: { "content-type": "application/json" },
          text: await answer.text(),
        });
        const ours = shapeOf({ status: 200, headers: recorded.responseHeaders, text: recorded.body });
        // Fields the platform documents that the simulator does not send, their parent sent.
        const absent = [...ours.fields.keys()].filter((path) => {
          if (theirs.fields.has(path) || path.endsWith("[]")) return false;
          const parent = path.includes(".") ? path.slice(0, path.lastIndexOf(".")) : "";
          return theirs.fields.has(parent);
        });
        const listed = report.operations.find((o) => o.operationId === match.operation.operationId);
        for (const path of absent) {
          expect(listed?.differences, `${match.operation.operationId} ${path}`).toContainEqual(
            expect.objectContaining({ path, what: "missing in simulator" }),
          );
          checked++;
        }
        if (match.operation.operationId === "listRegions") {
          // Every field the merged spec requires of a region (the seed's and the platform's) is
          // served, so none of them is drift; what is left are fields no fact of the record names.
          const region = (loadBundle().components as { schemas: Record<string, { required: string[] }> })
            .schemas.Region;
          const required = (region?.required ?? []).map((name) => `results[].${name}`);
          expect(required).toContain("results[].country");
          expect(absent.filter((path) => required.includes(path))).toEqual([]);
          expect(absent.length).toBeGreaterThan(0);
        }
      }
    } finally {
      await sim.close();
    }
    expect(checked).toBeGreaterThan(0);
    expect(report.compared).toBe(exchanges.length);
  });
});
