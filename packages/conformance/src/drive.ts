// The drivers as steps of the scenario run (scenarios/15-drivers.scenario.ts): one vitest test per
// (driver, operation), not a result of its own (its exchanges go to the judge; the rule results
// report them). A driver whose needs the run cannot meet does not run: the rule results it feeds
// skip with the same reason.

import picomatch from "picomatch";
import { inject, test } from "vitest";
import { DRIVERS } from "./drivers/index.js";
import { plannedResults } from "./judge/judge.js";
import { driverUnfinished } from "./run-judge.js";
import { runHttp, tell, unmetNeed } from "./scenario.js";
import { specModel } from "./spec.js";

class DriverSkip extends Error {}

export function driverSteps(): void {
  const results = plannedResults();
  for (const driver of DRIVERS)
    for (const operation of specModel().operations.filter((o) => driver.applies(o)))
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
        } catch (error) {
          if (error instanceof DriverSkip) return;
          driverUnfinished(driver.id, operation.operationId, (error as Error)?.message ?? String(error));
        }
      });
}
