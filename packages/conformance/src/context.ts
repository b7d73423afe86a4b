// What a run knows before its first scenario: the target, the keys, the discovered project and
// region, and the options. The CLI (or the global setup under plain vitest) builds it in the main
// process and hands it to the scenario workers through vitest's `provide`/`inject`.

export type TargetKind = "simulator" | "prism" | "url";
export type Severity = "must" | "should";

export interface RunContext {
  target: {
    kind: TargetKind;
    /** Base URL, e.g. http://127.0.0.1:4020 */
    url: string;
    /** Printed in reports instead of the URL's secrets (there are none) and the keys (never). */
    label: string;
    apiKey: string;
    /** Absent when no reseller key was given: reseller scenarios are skipped. */
    resellerApiKey?: string;
  };
  /** Names of the environment variables the keys came from (for messages; never the keys). */
  keySources: { apiKey: string; resellerApiKey: string };
  discovered: {
    projectId: number;
    regionId: number;
    regionName: string;
    /** A volume type the region offers (first of available_volume_types). */
    volumeType?: string;
    /** The spec has no list of protection profiles, so the id must be given or known. */
    protectionProfileId?: number;
    /** Flavor for check_limits; its allowed values are not in the spec. */
    gpuFlavor?: string;
  };
  allowWrites: boolean;
  allowBurst: boolean;
  strict: boolean;
  dryRun: boolean;
  /** Globs over scenario ids; empty runs every scenario. */
  only: string[];
  /** Requests per second of every scenario but the burst. */
  rateLimit: number;
  /** Multiplies polling intervals and deadlines (and the embedded simulator's task durations). */
  timeScale: number;
}

declare module "vitest" {
  export interface ProvidedContext {
    conformance: RunContext;
  }
}

export interface Evidence {
  method: string;
  path: string;
  status: number | null;
  excerpt: string;
}

export interface CreatedResource {
  type: string;
  id: string;
  project_id?: number;
  region_id?: number;
  task_id?: string;
}

/** What a scenario leaves on its vitest test case (`task.meta`) for the reporters. */
export interface ScenarioMeta {
  scenario?: {
    id: string;
    title: string;
    severity: Severity;
    operation: string;
    calls: string[];
  };
  evidence?: Evidence[];
  /** Why it was skipped or warned. */
  reason?: string;
  warned?: boolean;
  created?: CreatedResource[];
  /** Not selected by --only: left out of reports altogether. */
  unselected?: boolean;
  /** Would it run (dry run)? */
  plan?: "run" | "skip";
}
