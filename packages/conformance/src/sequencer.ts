// Scenario files run one after another in the order of their names, so the burst (last) never
// spends the rate budget of another scenario.
import { BaseSequencer, type TestSpecification } from "vitest/node";

export default class ByFileName extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    return [...files].sort((a, b) => a.moduleId.localeCompare(b.moduleId));
  }
}
