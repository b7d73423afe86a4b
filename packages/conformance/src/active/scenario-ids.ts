// Every result id an active run can report, known before anything is sent: what `--only` is
// checked against, so that a glob that selects nothing is refused before discovery contacts the
// target. The stories' ids are read from the scenario files' text (vitest alone can load those
// files); the registry's results come from the rules and the spec. A test holds the list to what a
// dry run reports.

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { plannedResults } from "../judge/judge.js";

const SCENARIOS = fileURLToPath(new URL("../../scenarios/", import.meta.url));

/** A story's id as its scenario file writes it: `id: "auth.wrong-token",` on a line of its own. */
const ID_LINE = /^\s*id: "([a-z0-9][a-z0-9.-]*)",?$/gm;

/** A story's definition as its scenario file writes it: `scenario(\n  {\n …\n  },` up to its body. */
const DEFINITION = /\bscenario\(\s*\{([\s\S]*?)\n\s*\},\s*async\b/g;

let known: string[] | undefined;

const scenarioFiles = () =>
  readdirSync(SCENARIOS)
    .filter((name) => name.endsWith(".scenario.ts"))
    .sort()
    .map((name) => readFileSync(`${SCENARIOS}${name}`, "utf8"));

/**
 * The stories that say a request must be refused or answered one status (`refuses: true` in their
 * definition): each has an "accepts" defect in test/defects.ts, as the registry's refusal rules do.
 */
export function refusalStoryIds(): string[] {
  return scenarioFiles().flatMap((text) =>
    [...text.matchAll(DEFINITION)].flatMap((m) => {
      const definition = m[1] as string;
      const id = [...definition.matchAll(ID_LINE)][0]?.[1];
      return id !== undefined && /^\s*refuses: true,?$/m.test(definition) ? [id] : [];
    }),
  );
}

/** The ids of every result a run reports (stories and the registry's rules), each once. */
export function resultIds(): string[] {
  known ??= [
    ...new Set([
      ...scenarioFiles().flatMap((text) => [...text.matchAll(ID_LINE)].map((m) => m[1] as string)),
      ...plannedResults().map((r) => r.id),
    ]),
  ];
  return known;
}
