// The drivers as steps of the scenario run (scenarios/15-drivers and 75-drivers-after-creates): one vitest test per
// (driver, operation), not a result of its own (its exchanges go to the judge; the rule results
// report them). A driver whose needs the run cannot meet does not run: the rule results it feeds
// skip with the same reason.

// The suite's own names are never redacted as if they were a key (src/active/vocabulary.ts registers them).
import "./vocabulary.js";
import type { OperationModel } from "@platform-api/spec";
import picomatch from "picomatch";
import { inject, test } from "vitest";
import { needsCreated } from "../facts/path-values.js";
import { specModel } from "../facts/spec.js";
import { plannedResults } from "../judge/judge.js";
import type { Evidence } from "../shared/context.js";
import { DRIVERS } from "./drivers/index.js";
import { confirmFailure, failureEvidence } from "./flaky.js";
import { driverFlaky, driverUnfinished } from "./run-judge.js";
import { runHttp, tell, unmetNeed } from "./scenario.js";

class DriverSkip extends Error {}

/** How many times a driver stopped by a one-off (a 5xx that did not repeat) runs again. */
const DRIVE_AGAIN = 2;

/**
 * The driver steps of one point in the run: "first", before any scenario, for operations whose
 * path values the discovery gives; "after-creates", once the task scenarios have created what the
 * others' paths name (a volume_id of createVolume's task).
 */
export function driverSteps(when: "first" | "after-creates"): void {
  const results = plannedResults();
  const now = (operation: OperationModel) => needsCreated(operation) === (when === "after-creates");
  const steps = DRIVERS.flatMap((driver) =>
    specModel()
      .operations.filter((o) => driver.applies(o) && now(o))
      .map((operation) => ({ driver, operation })),
  );
  // vitest refuses a file without tests; a step that is no result reports nothing.
  if (steps.length === 0) test.skip(`no driver runs ${when}: no operation's path needs it`, () => {});
  for (const { driver, operation } of steps)
    test(`drive ${driver.id}: ${operation.operationId}`, async () => {
      const run = inject("conformance");
      if (run.dryRun || unmetNeed(driver.needs(operation), run)) return;
      // Under --only, a driver runs for the results it could feed that were selected.
      const fed = results.filter(
        (r) => r.operation === operation && driver.feeds.some((prefix) => r.rule.id.startsWith(prefix)),
      );
      if (run.only.length > 0 && !fed.some((r) => picomatch.isMatch(r.id, run.only))) return;
      tell(run, { kind: "scenario", id: `the ${driver.id} driver: ${operation.operationId}` });
      const http = runHttp(run, `the ${driver.id} driver`);
      // A 5xx or lost answer that stopped it is sent again first; when it does not repeat, the
      // driver runs again from the start (a walk is only whole in one go), a bounded number of times.
      let oneOff: { problem: string; failed: Evidence[]; again: Evidence[] } | undefined;
      for (let attempt = 0; ; attempt++)
        try {
          await driver.drive(
            {
              run,
              http,
              skip: (reason) => {
                throw new DriverSkip(reason);
              },
            },
            operation,
          );
          if (oneOff) driverFlaky(driver.id, operation.operationId, oneOff);
          return;
        } catch (error) {
          if (error instanceof DriverSkip) return;
          const problem = (error as Error)?.message ?? String(error);
          const failed = failureEvidence(error);
          const confirmed = attempt < DRIVE_AGAIN ? await confirmFailure(failed, run.timeScale) : undefined;
          if (confirmed && !confirmed.repeated) {
            oneOff ??= { problem, failed, again: confirmed.again };
            continue;
          }
          const again = confirmed?.again ?? [];
          const repeated = again.map((e) => `${e.method} ${e.path} → ${e.status ?? "no answer"}`);
          driverUnfinished(
            driver.id,
            operation.operationId,
            repeated.length > 0 ? `${problem} (repeated when sent again: ${repeated.join(", ")})` : problem,
            [...failed, ...again],
          );
          return;
        }
    });
}
