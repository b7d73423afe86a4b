export declare const RELEASED: string;
export declare const BUNDLE: string;

/** One change `redocly diff` found, as its JSON report gives it (the fields the tests read). */
export interface DiffChange {
  path: string;
  impact: "major" | "minor" | "patch";
  verdicts: { ruleId: string; impact: string; message: string }[];
}

export interface GateResult {
  /** 0 passes, 1 a major change without a major bump, 2 the gate could not run. */
  status: 0 | 1 | 2;
  /** Which file was missing, when one was. */
  missing?: "released" | "bundle";
  markdown: string;
  messages: string[];
  bump?: "major" | "minor" | "patch" | "none";
  /** The next version of the description, but for a major change (its bump is the author's). */
  next?: string;
  report?: { bump?: string; changes: DiffChange[]; summary: Record<"major" | "minor" | "patch", number> };
}

/** Runs the gate and returns what to print and whether it passed. */
export declare function runGate(files?: { base?: string; revision?: string }): GateResult;
