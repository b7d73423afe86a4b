// A secret part that is an ordinary word (`test$client-token`) or a few letters: what came from
// outside is still redacted in every form, and the suite's own names (rule and result ids, check
// names, operation ids, the spec's paths, the titles) never are. Every line of a run with such a
// token used to print `auth.reseller.***-forbidden`.

// As every entry point does (the CLI, the library, the active run's scenario worker): the names are
// registered.
import "../src/active/vocabulary.js";
import { describe, expect, it } from "vitest";
import { echoes, leaks } from "../../client/test/key-forms.js";
import { resultIds } from "../src/active/scenario-ids.js";
import { specModel } from "../src/facts/spec.js";
import { createJudge, plannedResults } from "../src/judge/judge.js";
import { RULES } from "../src/rules/index.js";
import { createRedactor, createUsageRedactor, REDACTED } from "../src/shared/redact.js";
import { startFaultyTarget } from "./faulty-target.js";
import { runInProcess } from "./run-in-process.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const WORD = "test$client-token";
/** A secret part of 3 characters, inside an operation id of the spec. */
const SHORT = "7$get";

/** The suite's own names, from the registry and the spec (what every run prints). */
const SUITE_NAMES = [
  ...resultIds(),
  ...RULES.map((r) => r.id),
  ...model.operations.flatMap((o) => [o.operationId, o.path]),
  ...plannedResults().map((r) => r.rule.title(r.operation)),
];

describe.each([
  ["an ordinary word", WORD],
  ["3 characters", SHORT],
])("a secret part of %s", (_name, key) => {
  const redact = createRedactor([key]);

  it("the suite's own names are never redacted", () => {
    expect(SUITE_NAMES.filter((name) => redact(name) !== name)).toEqual([]);
    const line = `✗ auth.reseller.client-token-forbidden (must) listQuotaLimitRequests GET ${model.operations[0]?.path}`;
    expect(redact(line)).toBe(line);
  });

  it("every form of the token from outside is redacted", () => {
    for (const [form, text] of Object.entries(echoes(`${tokenPrefix}${key}`))) {
      // A secret part under 4 characters is never redacted alone: it would match ordinary text.
      if (form === "secret part alone" && key === SHORT) continue;
      const out = redact(`{"detail":"bad ${text}!"}`);
      expect(out, form).toContain(REDACTED);
      expect(
        leaks(out, { key }).filter((l) => !(key === SHORT && l.includes("secret part"))),
        form,
      ).toEqual([]);
    }
  });

  it("the usage redactor (the key from its environment variable) keeps the suite's names too", () => {
    const usage = createUsageRedactor({ GCORE_API_KEY: key }, ["GCORE_API_KEY"]);
    expect(SUITE_NAMES.filter((name) => usage(name) !== name)).toEqual([]);
    expect(usage(`token ${key} refused`)).toBe(`token ${REDACTED} refused`);
  });
});

describe("the judge with a word for a secret part", () => {
  it("its report keeps every result id and title, and hides the token a server echoed", () => {
    const judge = createJudge({ secrets: [WORD] });
    const me = model.operations.find((o) => o.operationId === "getCurrentClient");
    judge.judge({
      method: "GET",
      url: me?.path ?? "",
      requestHeaders: { authorization: `${tokenPrefix}${WORD}` },
      status: 500,
      responseHeaders: { "content-type": "application/json" },
      body: JSON.stringify({ message: `no client for client-token (${WORD})` }),
      at: 1_000_000,
      durationMs: 1,
    });
    const report = judge.report({ target: "t", startedAt: new Date(0), options: {}, strict: true });
    expect(report.scenarios.map((s) => s.id)).toEqual(plannedResults().map((r) => r.id));
    for (const s of report.scenarios) expect(s.id).not.toContain(REDACTED);
    const text = JSON.stringify(report);
    expect(text).not.toContain("test$client");
    expect(text).not.toContain("for client-token");
    expect(text).toContain(`no client for ${REDACTED}`);
  });
});

// Through the CLI's path in this process (its flag parser, then runConformance): every line it
// prints and every report it writes pass the run's own redactor (src/report/run-output.ts), the same
// in any process. The CLI's own process adds commander's refusals, which this run makes none of;
// its real stdout and stderr are secrecy.test.ts's.
describe("a run with a word for a secret part, through the CLI's path", () => {
  it("prints and writes every result id whole, and the token nowhere", async () => {
    // The platform behind the proxy knows its own client token: the run's is swapped for it.
    const target = await startFaultyTarget({
      name: "a client token whose secret part is a word",
      fails: [],
      request: (ex, sim) => {
        if (ex.headers.authorization === `${tokenPrefix}${WORD}`)
          ex.headers.authorization = `${tokenPrefix}${sim.apiKey}`;
        return undefined;
      },
    });
    try {
      const run = await runInProcess(["--target", target.url, "--only", "auth.*"], {
        GCORE_API_KEY: WORD,
        GCORE_RESELLER_API_KEY: target.sim.resellerApiKey,
      });
      const out = run.stdout + run.stderr;
      expect(run.code, out).toBe(0);
      const ids = run.report?.scenarios.map((s) => s.id) ?? [];
      expect(ids, out).toContain("auth.reseller.client-token-forbidden");
      for (const [name, text] of Object.entries({ stdout: out, ...run.files })) {
        const at = text.indexOf(`${REDACTED}-forbidden`);
        expect(at, `${name}: ${text.slice(Math.max(0, at - 200), at + 100)}`).toBe(-1);
        expect(text, name).not.toContain(WORD);
      }
      for (const id of ids) expect(out).toContain(id);
    } finally {
      await target.close();
    }
  });
});
