// The order of the test files: those that spend the longest waiting (whole-suite runs paced at the
// platform's rate, respect's 5 s polls, a browser) start first, the rest as vitest orders them (its
// cached durations, or size on a first run). Started last, a file that mostly waits is the package's
// tail on a machine whose cores the other packages' tests have left idle by then; a fresh clone
// has no durations cached, and vitest's size order started workflows.test.ts among the last.
import { BaseSequencer, type TestSpecification } from "vitest/node";

/** The files that wait longest, longest first (about a minute, then 20 s each, alone). */
const WAITING = ["teeth", "workflows", "fuzz", "report-html", "observe-defects", "cli"].map(
  (name) => `/test/${name}.test.ts`,
);

const rank = (file: TestSpecification) => {
  const at = WAITING.findIndex((suffix) => file.moduleId.endsWith(suffix));
  return at < 0 ? WAITING.length : at;
};

export default class LongestWaitsFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const sorted = await super.sort(files);
    return sorted
      .map((file, index) => ({ file, index }))
      .sort((a, b) => rank(a.file) - rank(b.file) || a.index - b.index)
      .map(({ file }) => file);
  }
}
