// The registry's checks as scenarios: one vitest test per (check, operation) pair, id
// `<check id>.<operationId>`, with the check's severity and needs.

import type { PlannedCheck } from "./checks/index.js";
import { operationNeeds } from "./operations.js";
import { scenario } from "./scenario.js";

export function checkScenarios(planned: readonly PlannedCheck[]): void {
  for (const { check, operation, id } of planned)
    scenario(
      {
        id,
        title: check.title(operation),
        severity: check.severity,
        operation: operation.operationId,
        check: check.id,
        needs: check.needs ? check.needs(operation) : operationNeeds(operation),
        calls: check.calls(operation),
      },
      (api) => check.run(api, operation),
    );
}
