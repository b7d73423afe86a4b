// `conformance fuzz` end to end, in-process (runFuzz, as the CLI calls it after parsing its flags):
// against the embedded simulator every phase with a fixed seed finds nothing, and against Prism
// nothing either; each planted defect of test/fuzz-defects.ts is found with exit 1 and a
// reproducer whose replay fails again (and passes against a correct server); the correct variants
// of the teeth's catalogue pass; the baseline accepts known findings and only those; read-only
// sends nothing but GET; the same seed sends the same requests. These need whole runs against real
// servers: only they show generation, sending, judging and the reports fitting together. Fixed
// seeds, --only and small --max-examples keep each to a few seconds.

import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { simulatorHints } from "@platform-api/simulator";
import { operationById } from "@platform-api/spec";
import { afterAll, describe, expect, it } from "vitest";
import { DEFAULTS } from "../src/cli/options.js";
import { specModel } from "../src/facts/spec.js";
import type { FuzzOptions } from "../src/fuzz/options.js";
import { plannedResults } from "../src/judge/judge.js";
import { createRedactor } from "../src/shared/redact.js";
import { correctVariants } from "./defects.js";
import { type Defect, type FaultyTarget, startFaultyTarget } from "./faulty-target.js";
import { fuzzDefects } from "./fuzz-defects.js";
import { fuzz, scratch } from "./fuzz-run.js";
import { tokenPrefix } from "./token-prefix.js";

const dir = scratch("fuzz-test-");
const targets: FaultyTarget[] = [];
afterAll(async () => {
  await Promise.all(targets.map((t) => t.close()));
});

async function started(defect: Defect | undefined) {
  const target = await startFaultyTarget(defect);
  targets.push(target);
  return target;
}

// Every run below mostly waits on its pace (100 requests a second), few share a target: all side by side.
describe.concurrent("conformance fuzz", () => {
  describe.concurrent("no false alarms", () => {
    it("the embedded simulator, every phase, a fixed seed: nothing found; what it created is listed", async () => {
      const run = await fuzz({ allowWrites: true });
      expect(run.report.fuzz?.findings, run.out).toEqual([]);
      expect(run.exitCode, run.out).toBe(0);
      expect(run.report.fuzz?.seed).toBe(7);
      expect(run.report.fuzz?.requests).toBeGreaterThan(200);
      expect(run.report.scenarios.some((s) => s.id.startsWith("fuzz.forbidden-body-refused."))).toBe(true);
      expect(run.report.createdResources.some((r) => r.type === "volume")).toBe(true);
      // The stateful phase's tasks are followed to their end and read again: every task rule judged them.
      const taskResults = plannedResults()
        .filter((r) => r.rule.on === "task")
        .map((r) => r.id);
      expect(taskResults.length).toBeGreaterThan(0);
      for (const id of taskResults)
        expect(run.report.scenarios.find((x) => x.id === id)?.status, id).toBe("passed");
      expect(run.out).toMatch(/stateful: \d+ requests/);
    });

    it("Prism on the bundled spec: nothing found (the rules that need state are left out)", async () => {
      const run = await fuzz({ target: "prism", allowWrites: true, maxExamples: 5 });
      expect(run.report?.fuzz?.findings, run.out).toEqual([]);
      expect(run.exitCode, run.out).toBe(0);
    });

    const variants = correctVariants().filter((v) =>
      [/omits the inferred-required/, /adds fields the spec does not list/, /no Retry-After/].some((n) =>
        n.test(v.name),
      ),
    );
    // One run for the three: each changes only the answers' shape (members left out where null,
    // members added where open, a header left out), none a request, and none hides another's.
    it(`the correct variants pass, together: ${variants.map((v) => v.name).join(" + ")}`, async () => {
      expect(variants).toHaveLength(3);
      expect(variants.filter((v) => v.request || v.simulator || v.flags)).toEqual([]);
      const target = await started({
        name: variants.map((v) => v.name).join(" + "),
        fails: [],
        response: (ex, answer, sim) => {
          for (const v of variants) v.response?.(ex, answer, sim);
        },
      });
      // What the variants change is the answers' shape: the coverage phase calls every operation.
      const run = await fuzz({ phases: ["coverage"] }, target);
      // What the teeth's catalogue lets them warn on, and nothing else: only the should the spec
      // infers (x-inferred-required), so allowing the three's together hides no other finding.
      const warns = variants.flatMap((v) => v.warns ?? []);
      expect(warns.every((id) => id.startsWith("schema.inferred."))).toBe(true);
      const unexpected = run.report.fuzz?.findings.filter((f) => !warns.includes(f.id));
      expect(unexpected, run.out).toEqual([]);
      expect(run.exitCode, run.out).toBe(0);
    });
  });

  describe("planted defects: found, with a reproducer whose replay fails again", () => {
    const correct = started(undefined);
    it.concurrent.each(fuzzDefects().map((d) => [d.name, d] as const))("%s", async (_, defect) => {
      const target = await started(defect);
      // The simulator's own profile: the spec lists none, so a run against a URL is given one.
      const own = (t: FaultyTarget) => ({
        allowWrites: defect.writes ?? false,
        protectionProfileId: simulatorHints(t.sim.store, t.sim.apiKey).protectionProfileId,
      });
      // One example per phase: every phase still runs, and each defect is met by a coverage case (the
      // same finding, reproducer and tries at --max-examples 1 as at 10); the fuzz phase's own
      // finding is the test "the fuzz phase alone" below.
      const run = await fuzz({ only: [defect.operation], maxExamples: 1, ...own(target) }, target);
      expect(run.exitCode, run.out).toBe(1);
      const finding = run.report.fuzz?.findings.find((f) => f.id === defect.finding);
      expect(finding, run.out).toBeDefined();
      // A defect fails every time its request is sent again: it is no flaky one-off.
      expect(finding?.tries?.failed, run.out).toBe(finding?.tries?.of);
      expect(run.report.scenarios.find((s) => s.id === defect.finding)?.status).toBe("failed");
      // The reproducer: the smallest request as JSON and as curl, the token as its variable only.
      const variable = finding?.request.auth === "reseller" ? DEFAULTS.resellerApiKeyEnv : DEFAULTS.apiKeyEnv;
      expect(finding?.curl).toContain(`"Authorization: ${tokenPrefix}$${variable}"`);
      for (const key of [target.sim.apiKey, target.sim.resellerApiKey])
        expect(readFileSync(join(run.reportDir ?? "", "report.json"), "utf8")).not.toContain(key);
      const reportJson = join(run.reportDir ?? "", "report.json");
      expect(readFileSync(reportJson, "utf8")).toContain(finding?.curl.slice(0, 40));
      const again = await fuzz({ replay: reportJson, ...own(target) }, target);
      expect(again.exitCode, again.out).toBe(1);
      expect(again.report.fuzz?.replay?.find((r) => r.id === defect.finding)?.stillFails, again.out).toBe(
        true,
      );
      const fixed = await fuzz({ replay: reportJson, ...own(await correct) }, await correct);
      expect(fixed.report.fuzz?.replay?.find((r) => r.id === defect.finding)?.stillFails, fixed.out).toBe(
        false,
      );
      expect(fixed.exitCode, fixed.out).toBe(0);
    });
  });

  describe.concurrent("the fuzz phase alone", () => {
    it("finds a 5xx no coverage case is needed for, and shrinks its request to the smallest that fails", async () => {
      const defect = fuzzDefects().find((d) => d.operation === "listTasks");
      if (!defect) throw new Error("the catalogue changed");
      // Seed 7 meets the defect within its first three examples (the finding and its shrunk request
      // are the same at 3, 5 and 50): what 50 added was generation after it, 79 requests against 40.
      const run = await fuzz(
        { only: [defect.operation], phases: ["fuzz"], maxExamples: 5 },
        await started(defect),
      );
      expect(run.exitCode, run.out).toBe(1);
      const finding = run.report.fuzz?.findings.find((f) => f.id === defect.finding);
      expect(finding?.phase, run.out).toBe("fuzz");
      // Shrunk: only the parameter that fails it, holding a single character beyond ASCII.
      expect(finding?.request.query.map(([name]) => name)).toEqual(["task_type"]);
      expect([...(finding?.request.query[0]?.[1] ?? "")]).toHaveLength(1);
    });
  });

  describe.concurrent("the baseline, read-only, the seed", () => {
    it("accepts the findings it holds and fails only on new ones", async () => {
      const [refused, boundary] = [fuzzDefects()[4], fuzzDefects()[0]];
      if (!refused || !boundary) throw new Error("the catalogue changed");
      const baseline = join(dir, "baseline.json");
      const target = await started({
        ...refused,
        request: (ex, sim) => refused.request?.(ex, sim) ?? boundary.request?.(ex, sim),
      });
      const accepted = await fuzz({ only: [refused.operation], baseline, baselineUpdate: true }, target);
      expect(accepted.exitCode, accepted.out).toBe(0);
      const written = JSON.parse(readFileSync(baseline, "utf8")) as { findings: { id: string }[] };
      expect(written.findings.map((f) => f.id)).toContain(refused.finding);
      const later = await fuzz({ only: [refused.operation], baseline }, target);
      expect(later.exitCode, later.out).toBe(0);
      expect(later.report.fuzz?.findings.find((f) => f.id === refused.finding)?.known).toBe(true);
      expect(later.report.scenarios.find((s) => s.id === refused.finding)?.status).toBe("warned");
      const fresh = await fuzz({ only: [refused.operation, boundary.operation], baseline }, target);
      expect(fresh.exitCode, fresh.out).toBe(1);
      expect(fresh.report.scenarios.find((s) => s.id === boundary.finding)?.status).toBe("failed");
    });

    it("read-only sends nothing but GET; the same seed sends the same requests in the same order", async () => {
      const seen: string[][] = [[], []];
      let which = 0;
      const target = await started({
        name: "a recorder",
        fails: [],
        request: (ex) => {
          seen[which]?.push(`${ex.method} ${ex.path}?${ex.query} ${JSON.stringify(ex.body ?? null)}`);
          return undefined;
        },
      });
      const only = ["listAiTasks", "createVolume", "putStorageNotificationEvent", "listQuotaLimitRequests"];
      const same = { only, seed: 11, phases: ["coverage", "fuzz"] as FuzzOptions["phases"], maxExamples: 5 };
      await fuzz(same, target);
      which = 1;
      await fuzz(same, target);
      expect(seen[0]?.length).toBeGreaterThan(50);
      expect(seen[0]?.every((line) => line.startsWith("GET "))).toBe(true);
      // A request the target answered 429 goes again after its Retry-After (paced at the spec's own
      // rate, that may happen in one run and not the other): one line per request sent.
      const once = (lines: string[] = []) => lines.filter((line, i) => line !== lines[i - 1]);
      expect(once(seen[1])).toEqual(once(seen[0]));
    });

    it("puts back what a write changed in place: a protection profile reads as before the run", async () => {
      const target = await started(undefined);
      const { protectionProfileId } = simulatorHints(target.sim.store, target.sim.apiKey);
      const read = async () => {
        const answer = await fetch(
          `${target.url}${operationById(specModel(), "getProtectionProfile").path.replace("{id}", String(protectionProfileId))}`,
          {
            headers: { authorization: `${tokenPrefix}${target.sim.apiKey}` },
          },
        );
        return (await answer.json()) as { fields: { base_field: number; value: string }[] };
      };
      const before = await read();
      const run = await fuzz(
        {
          only: ["updateProtectionProfile"],
          allowWrites: true,
          phases: ["coverage", "fuzz"],
          protectionProfileId,
        },
        target,
      );
      expect(run.out).toContain(
        `put back: updateProtectionProfile ${operationById(specModel(), "updateProtectionProfile").path.replace("{id}", String(protectionProfileId))}`,
      );
      const values = (p: typeof before) => p.fields.map((f) => [f.base_field, f.value]);
      expect(values(await read())).toEqual(values(before));
    });

    it("never shows the token, in any form a server echoes it in", async () => {
      const target = await started({
        name: "a server that echoes the Authorization header in its errors, and fails on the largest page",
        fails: [],
        response: (ex, answer) => {
          if (answer.status < 400 && ex.query.get("limit") !== "1000") return;
          const header = ex.headers.authorization ?? "";
          const token = header.startsWith(tokenPrefix) ? header.slice(tokenPrefix.length) : header;
          answer.status = answer.status < 400 ? 500 : answer.status;
          answer.body = {
            detail: `bad request from ${header}`,
            b64: Buffer.from(token).toString("base64"),
            url: encodeURIComponent(token),
          };
        },
      });
      const run = await fuzz({ only: ["listRegions"], phases: ["coverage"] }, target);
      expect(run.exitCode, run.out).toBe(1);
      const leaks = (text: string) =>
        createRedactor([target.sim.apiKey, target.sim.resellerApiKey])(text) !== text;
      expect(leaks(run.out)).toBe(false);
      for (const file of ["report.json", "junit.xml", "report.md", "report.html"])
        expect(leaks(readFileSync(join(run.reportDir ?? "", file), "utf8")), file).toBe(false);
      // Not vacuous: the echo reached the report, redacted.
      expect(readFileSync(join(run.reportDir ?? "", "report.json"), "utf8")).toContain(
        `bad request from ${tokenPrefix.trim()}`,
      );
    });

    it("usage errors say what is allowed, before anything is sent (exit 2)", async () => {
      const report = join(dir, "not-fuzz.json");
      writeFileSync(report, JSON.stringify({ scenarios: [] }));
      for (const [over, said] of [
        [
          { phases: ["coverage", "bogus"] },
          /--phases "bogus" is not allowed: give one or more of coverage, fuzz, stateful/,
        ],
        [{ maxExamples: 0 }, /--max-examples needs a whole number from 1 to 1000/],
        [{ baselineUpdate: true }, /--baseline-update needs --baseline FILE/],
        [{ replay: report }, /holds no fuzz findings: give the report.json of a fuzz run/],
        [
          { only: ["no-such-operation"] },
          /--only "no-such-operation" matches no operation of the spec \(by operationId\); allowed: globs/,
        ],
      ] as const) {
        const run = await fuzz(over as Partial<FuzzOptions>);
        expect(run.exitCode, run.out).toBe(2);
        expect(run.out).toMatch(said);
      }
    });
  });
});
