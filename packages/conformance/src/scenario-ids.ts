// Every result id an active run can report, known before anything is sent: what `--only` is
// checked against, so that a glob that selects nothing is refused before discovery contacts the
// target. The stories' ids are read from the scenario files' text (vitest alone can load those
// files); the registry's results come from the rules and the spec. A test holds the list to what a
// dry run reports.

import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { plannedResults } from "./judge/judge.js";

const SCENARIOS = fileURLToPath(new URL("../scenarios/", import.meta.url));

/** A story's id as its scenario file writes it: `id: "auth.wrong-token",` on a line of its own. */
const ID_LINE = /^\s*id: "([a-z0-9][a-z0-9.-]*)",?$/gm;

let known: string[] | undefined;

/** The ids of every result a run reports (stories and the registry's rules), each once. */
export function resultIds(): string[] {
  known ??= [
    ...new Set([
      ...readdirSync(SCENARIOS)
        .filter((name) => name.endsWith(".scenario.ts"))
        .sort()
        .flatMap((name) =>
          [...readFileSync(`${SCENARIOS}${name}`, "utf8").matchAll(ID_LINE)].map((m) => m[1] as string),
        ),
      ...plannedResults().map((r) => r.id),
    ]),
  ];
  return known;
}
