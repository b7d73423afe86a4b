// Before any scenario: reach the target, check the key, and find the project and region to use
// (the default project and an ACTIVE region, unless given). What the user can fix (a target that
// does not answer, a refused key, a flag naming what cannot be used) is a usage error (exit 2); an
// answer that breaks the spec is a finding, reported as a failed discovery.* result.

import { SIMULATOR_HEADER } from "@platform-api/simulator";
import { operationById } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import { largestPage, offsetList } from "../facts/offset.js";
import { defaultRateLimit } from "../facts/rate.js";
import { listRegions, REGIONS, usableRegionState } from "../facts/regions.js";
import { specModel } from "../facts/spec.js";
import { type Answer, CutAnswerError, type Http, NoAnswerError } from "../http/http.js";
import type { ActivityHooks } from "../shared/activity.js";
import { type ConformanceOptions, KEY_VARIABLES } from "../shared/conformance-options.js";
import type { Discovery, RunContext } from "../shared/context.js";
import { fieldOf, isRecord } from "../shared/json.js";
import { createUsageRedactor } from "../shared/redact.js";
import { forTerminal } from "../shared/terminal.js";
import { UsageError } from "../shared/usage-error.js";
import { createDiscoverySteps, type DiscoverySteps } from "./discovery-steps.js";
import { walkOffsetList } from "./offset-walk.js";
import { type StartedTarget, startTarget } from "./target.js";

export interface PreparedRun {
  context: RunContext;
  target: StartedTarget | undefined;
  close(): Promise<void>;
}

/**
 * `notice` takes the lines that say what discovery is waiting for (a target that has not answered
 * for a few seconds); by default they go to stderr, apart from the run's record on stdout.
 */
export async function prepareRun(
  options: ConformanceOptions,
  env: Record<string, string | undefined> = process.env,
  notice: (line: string) => void = (line) => process.stderr.write(`${line}\n`),
  /** Told what discovery sends and waits for (a run's progress and time account). */
  activity?: ActivityHooks,
): Promise<PreparedRun> {
  const base = {
    allowWrites: options.allowWrites,
    allowBurst: options.allowBurst,
    strict: options.strict,
    dryRun: options.dryRun,
    only: options.only,
    rateLimit: options.rateLimit,
    keySources: { apiKey: options.apiKeyEnv, resellerApiKey: options.resellerApiKeyEnv },
    ...(options.recordExchanges ? { recordExchanges: options.recordExchanges } : {}),
  };
  if (options.dryRun) {
    // Nothing is started or called: the plan names the project and region as given or "discovered".
    return {
      context: {
        ...base,
        target: { kind: "url", url: options.target, label: options.target, apiKey: "" },
        discovered: { projectId: options.projectId, regionId: options.regionId },
        discovery: { steps: [], exchanges: [] },
        timeScale: options.timeScale ?? 1,
      },
      target: undefined,
      close: async () => {},
    };
  }
  const target = await startTarget(options, env);
  try {
    // Redacted as every printed line is: of the keys in the key variables and anything token-shaped.
    const redact = createUsageRedactor(env, [
      options.apiKeyEnv,
      options.resellerApiKeyEnv,
      KEY_VARIABLES.apiKeyEnv,
      KEY_VARIABLES.resellerApiKeyEnv,
    ]);
    const { discovered, discovery } = await discover(
      target,
      options,
      (line) => notice(forTerminal(redact(line))),
      activity,
    );
    return {
      context: {
        ...base,
        target: {
          kind: target.kind,
          url: target.url,
          label: target.label,
          apiKey: target.apiKey,
          resellerApiKey: target.resellerApiKey,
        },
        discovered,
        discovery,
        timeScale: target.timeScale,
      },
      target,
      close: () => target.close(),
    };
  } catch (error) {
    await target.close();
    throw error;
  }
}

/** What discovery found, and the steps and judged answers the run reports. */
interface Discovered {
  discovered: RunContext["discovered"];
  discovery: Discovery;
}

/**
 * Reaches the target, checks the key, finds the project and region. Exit 2 (a UsageError) only for
 * what the user can fix: a target that does not answer, a key it refuses, a flag naming a project
 * or region that cannot be used. An answer that breaks the spec is a deviation: its step fails with
 * the evidence, and the scenarios that need what it should have given skip, saying why.
 */
async function discover(
  target: StartedTarget,
  options: ConformanceOptions,
  notice: (line: string) => void,
  activity?: ActivityHooks,
): Promise<Discovered> {
  const steps = createDiscoverySteps(target, options.rateLimit ?? defaultRateLimit(), notice, activity);
  steps.begin("discovery.current-client");
  const me = await checkAccount(target, options, steps);
  const missing: Missing = {};
  steps.begin("discovery.default-project");
  const projectId = await findProject(options, steps, missing);
  steps.begin("discovery.active-region");
  const region = await findRegion(options, steps, missing);
  // A server whose answers say it is the simulator is asked for what the API cannot tell.
  const hints =
    target.askHints && me.headers[SIMULATOR_HEADER] !== undefined ? await target.askHints() : target.hints;
  return {
    discovered: {
      projectId,
      regionId: region?.id,
      regionName: region === undefined ? undefined : String(region.display_name ?? region.id),
      volumeType: Array.isArray(region?.available_volume_types)
        ? region.available_volume_types[0]
        : undefined,
      protectionProfileId: options.protectionProfileId ?? hints.protectionProfileId,
      gpuFlavor: options.gpuFlavor ?? hints.gpuFlavor,
      ...(Object.keys(missing).length > 0 ? { missing } : {}),
    },
    discovery: { steps: steps.steps, exchanges: steps.exchanges },
  };
}

/** What discovery could not find, and what a scenario that needs it says. */
type Missing = NonNullable<RunContext["discovered"]["missing"]>;

/** The account, which proves the target answers and takes the key; a usage error when it does neither. */
async function checkAccount(
  target: StartedTarget,
  options: ConformanceOptions,
  steps: DiscoverySteps,
): Promise<Answer> {
  let me: Answer;
  try {
    me = await steps.http.call({ method: "GET", path: ME });
  } catch (error) {
    // An answer came, but far larger than an account: something other than the API answers there.
    if (error instanceof CutAnswerError)
      throw new UsageError(
        `The target ${target.label} answered ${error.message}; the account it answers is a few hundred bytes of JSON. Is the URL the API's base URL?`,
      );
    if (error instanceof NoAnswerError)
      throw new UsageError(
        `The target ${target.label} cannot be reached: ${error.message}. Is it running, is the URL right (http or https, host, port), and does it answer HTTP there?`,
      );
    throw error;
  }
  if (me.status === 401 || me.status === 403)
    throw new UsageError(
      `The target refused the API key from ${options.apiKeyEnv} (GET ${ME} answered ${me.status}). Check the token and that it has not expired.`,
    );
  if (me.status === 200) steps.end("passed");
  else
    steps.end(
      "failed",
      `GET ${ME} answered ${me.status}; with a key it accepts, it answers 200 with the account (the suite verifies the token with it)`,
    );
  return me;
}

/**
 * The project to use: --project-id, checked against the projects, or the default one. The projects
 * are read whether or not one was named, as a named region is checked against the regions.
 */
async function findProject(
  options: ConformanceOptions,
  steps: DiscoverySteps,
  missing: Missing,
): Promise<number | undefined> {
  const projectId = options.projectId;
  const projects = await listProjects(steps.http);
  if ("deviation" in projects) {
    steps.end("failed", projects.deviation);
    // A project the user named is used as given: the list that would check it broke the spec.
    if (projectId === undefined)
      missing.projectId = `no default project could be read (see discovery.default-project); or pass --project-id`;
    return projectId;
  }
  if (projectId !== undefined) {
    // As for a region: a list that breaks the spec cannot check it (the id is used as given).
    const deviation = steps.broken();
    if (deviation) steps.end("failed", deviation);
    else if (!projects.items.some((p) => p.id === projectId))
      throw new UsageError(`--project-id ${projectId} is not in GET ${projectsPath()}.`);
    else steps.end("skipped", `--project-id ${projectId} was given`);
    return projectId;
  }
  const found = defaultProject(projects.items, steps.broken);
  if ("id" in found) {
    steps.end("passed");
    return found.id;
  }
  if (found.usage) throw new UsageError(found.usage);
  steps.end("failed", found.deviation);
  missing.projectId = `no default project could be read (see discovery.default-project); or pass --project-id`;
  return undefined;
}

/**
 * The region to use: --region-id, checked against the regions, or an active one (one with volume
 * types first). Only regions in the state the spec names are to be used; the whole list is read to
 * find or check one.
 */
async function findRegion(
  options: ConformanceOptions,
  steps: DiscoverySteps,
  missing: Missing,
): Promise<Partial<Region> | undefined> {
  const usable = usableRegionState();
  const regions = await allRegions(steps.http, steps.broken);
  if ("deviation" in regions) {
    steps.end("failed", regions.deviation);
    // A region the user named is used as given: the list that would check it broke the spec.
    if (options.regionId !== undefined) return { id: options.regionId };
    missing.regionId = `the regions could not be read (see discovery.active-region); or pass --region-id`;
    return undefined;
  }
  let region: Partial<Region> | undefined;
  if (options.regionId !== undefined) {
    region = regions.items.find((r) => r.id === options.regionId);
    if (!region) throw new UsageError(`--region-id ${options.regionId} is not in GET ${REGIONS}.`);
    if (region.state !== usable)
      throw new UsageError(
        `--region-id ${options.regionId} is ${region.state}; only ${usable} regions may be used.`,
      );
  } else {
    const active = regions.items.filter((r) => r.state === usable && typeof r.id === "number");
    region =
      active.find((r) => Array.isArray(r.available_volume_types) && r.available_volume_types.length > 0) ??
      active[0];
  }
  if (typeof region?.id !== "number")
    throw new UsageError(`No ${usable} region in GET ${REGIONS}; pass one with --region-id.`);
  steps.end("passed");
  return region;
}

type Project = components["schemas"]["Project"];
type Region = components["schemas"]["Region"];

const ME = "/iam/clients/me";

/** A sentence for an answer that did not come: a target that stops answering mid-discovery. */
const noAnswer = (error: unknown) => {
  if (error instanceof NoAnswerError) return `no answer: ${error.message}`;
  throw error;
};

/** The projects' list, by its operation id (the spec's path, never typed again). */
const projectsPath = () => operationById(specModel(), "listProjects").path;

/** The projects (the list is not paginated); a deviation when the answer is not the documented list. */
async function listProjects(http: Http): Promise<{ items: Partial<Project>[] } | { deviation: string }> {
  let projects: Answer;
  try {
    projects = await http.send({ method: "GET", path: projectsPath() });
  } catch (error) {
    return { deviation: noAnswer(error) };
  }
  if (projects.status !== 200)
    return { deviation: `GET ${projectsPath()} answered ${projects.status}; expected 200 with the projects` };
  return { items: records<Project>(projects.body, "results") };
}

/**
 * The default project's id; a usage error when the answer is on-spec but names none (pass
 * --project-id); a deviation when the answer is not the documented list, or names it wrongly.
 */
function defaultProject(
  projects: Partial<Project>[],
  broken: () => string | undefined,
): { id: number } | { usage?: string; deviation?: string } {
  const chosen = projects.filter((p) => p.is_default === true);
  const deviation = broken();
  if (chosen.length === 1 && Number.isInteger(chosen[0]?.id)) return { id: chosen[0]?.id as number };
  if (chosen.length > 1)
    return { deviation: `GET ${projectsPath()} names ${chosen.length} default projects; one is the default` };
  if (chosen.length === 1)
    return {
      deviation: `the default project's id is ${JSON.stringify(chosen[0]?.id)}, not an integer${deviation ? `; ${deviation}` : ""}`,
    };
  if (deviation) return { deviation };
  return { usage: `No default project in GET ${projectsPath()}; pass one with --project-id.` };
}

/**
 * Every region, a page of the largest size the spec allows (its limit's maximum) at a time; a
 * deviation when a page is not the documented list.
 */
async function allRegions(
  http: Http,
  broken: () => string | undefined,
): Promise<{ items: Partial<Region>[] } | { deviation: string }> {
  const list = offsetList(listRegions());
  const refused = (answer: Answer): never => {
    throw new RegionsRefused(
      broken() ??
        `GET ${answer.url} answered ${answer.status} without an integer ${list.pagination.countField} and a ${list.pagination.itemsField} array; expected 200 with a page of regions`,
    );
  };
  try {
    const walk = await walkOffsetList(
      list,
      async (query) => {
        const answer = await http.send({ method: "GET", path: REGIONS, query });
        // A page that breaks the spec is not read on: what it says cannot be trusted.
        const deviation = broken();
        if (deviation) throw new RegionsRefused(deviation);
        return answer;
      },
      { limit: largestPage(list), maxPages: 20, refused },
    );
    return { items: walk.items.filter(isRecord) as Partial<Region>[] };
  } catch (error) {
    if (error instanceof RegionsRefused) return { deviation: error.message };
    return { deviation: noAnswer(error) };
  }
}

class RegionsRefused extends Error {}
/** The records under `field` of a body, whatever else the body holds. */
function records<T>(body: unknown, field: string): Partial<T>[] {
  const items = fieldOf(body, field);
  return Array.isArray(items) ? (items.filter(isRecord) as Partial<T>[]) : [];
}
