// The suite's own names: what it prints of itself on every line (result ids, check names,
// operation ids, the spec's paths, the results' titles, the drivers' ids). None of them came from
// outside, so none is ever a secret the target could have echoed: the redactor (src/shared/redact.ts)
// leaves them whole even where a key's secret part is one of their words (`test$client-token`).
//
// It reads the drivers and the stories' ids, so it sits with the active run, whose scenario worker
// loads it through drive.ts; fuzz, observe, verify and parity are peers of the active run and get
// it from the entry points (src/cli.ts, src/index.ts), which load it first.

import { specModel } from "../facts/spec.js";
import { plannedResults } from "../judge/judge.js";
import { RULES } from "../rules/index.js";
import { keepSuiteNames } from "../shared/redact.js";
import { DRIVERS } from "./drivers/index.js";
import { resultIds } from "./scenario-ids.js";

let names: readonly string[] | undefined;

/** Every name the suite gives itself, longest first (a name that holds a shorter one is kept whole). */
export function suiteVocabulary(): readonly string[] {
  names ??= (() => {
    const operations = specModel().operations;
    const ids = [...resultIds(), ...RULES.map((r) => r.id)];
    const all = new Set<string>([
      // A report shows an id's parts too: a check without its first segment, a result without its
      // operation (report.html's chips and matrix): every run of its dot-separated segments.
      ...ids.flatMap(segmentRuns),
      ...DRIVERS.map((d) => d.id),
      ...operations.flatMap((o) => [o.operationId, o.path]),
      // A path as sent has values for its parameters: the literal stretches between them.
      ...operations.flatMap((o) => o.path.split(/\{[^}]*\}/)).filter((piece) => piece.length > 1),
      ...plannedResults().map((r) => r.rule.title(r.operation)),
    ]);
    return [...all].sort((a, b) => b.length - a.length);
  })();
  return names;
}

/** Every run of consecutive dot-separated segments of an id, the whole id included. */
function segmentRuns(id: string): string[] {
  const segments = id.split(".");
  const runs: string[] = [];
  for (let from = 0; from < segments.length; from++)
    for (let to = from + 1; to <= segments.length; to++) runs.push(segments.slice(from, to).join("."));
  return runs;
}

// Loaded for this: from here on, every redactor keeps the suite's names whole.
keepSuiteNames(suiteVocabulary);
