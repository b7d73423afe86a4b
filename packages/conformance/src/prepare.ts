// Before any scenario: reach the target, check the key, and find the project and region to use
// (the default project and an ACTIVE region, unless given). Anything wrong here is a usage or
// configuration problem (exit 2), not a finding about the target.

import type { components } from "@platform-api/spec/generated/openapi";
import type { RunContext } from "./context.js";
import { createHttp, type Http, NoAnswerError } from "./http.js";
import { fieldOf, isRecord } from "./json.js";
import { largestPage, offsetList, walkOffsetList } from "./offset.js";
import { type ConformanceOptions, DEFAULTS, UsageError } from "./options.js";
import { createPacer } from "./pacer.js";
import { operationAt, schemaAt, successSchemaPointer, valuesOf } from "./spec.js";
import { type StartedTarget, startTarget } from "./target.js";

export interface PreparedRun {
  context: RunContext;
  target: StartedTarget | undefined;
  close(): Promise<void>;
}

export async function prepareRun(
  options: ConformanceOptions,
  env: Record<string, string | undefined> = process.env,
): Promise<PreparedRun> {
  const base = {
    allowWrites: options.allowWrites,
    allowBurst: options.allowBurst,
    strict: options.strict,
    dryRun: options.dryRun,
    only: options.only,
    rateLimit: options.rateLimit,
    keySources: { apiKey: options.apiKeyEnv, resellerApiKey: options.resellerApiKeyEnv },
  };
  if (options.dryRun) {
    // Nothing is started or called: the plan names the project and region as given or "discovered".
    return {
      context: {
        ...base,
        target: { kind: "url", url: options.target, label: options.target, apiKey: "" },
        discovered: { projectId: options.projectId ?? 0, regionId: options.regionId ?? 0, regionName: "" },
        timeScale: options.timeScale ?? 1,
      },
      target: undefined,
      close: async () => {},
    };
  }
  const target = await startTarget(options, env);
  try {
    const discovered = await discover(target, options);
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

async function discover(
  target: StartedTarget,
  options: ConformanceOptions,
): Promise<RunContext["discovered"]> {
  const http = createHttp({
    baseUrl: target.url,
    apiKey: target.apiKey,
    resellerApiKey: target.resellerApiKey,
    pacer: createPacer(options.rateLimit ?? DEFAULTS.rateLimit),
    timeScale: target.timeScale,
  });
  const reach = async <T>(answer: Promise<T>): Promise<T> => {
    try {
      return await answer;
    } catch (error) {
      if (error instanceof NoAnswerError)
        throw new UsageError(
          `The target ${target.label} cannot be reached: ${error.message}. Is it running, and is the URL right?`,
        );
      throw error;
    }
  };

  const me = await reach(http.call({ method: "GET", path: "/iam/clients/me" }));
  if (me.status === 401 || me.status === 403)
    throw new UsageError(
      `The target refused the API key from ${options.apiKeyEnv} (GET /iam/clients/me answered ${me.status}). Check the token and that it has not expired.`,
    );
  if (me.status !== 200)
    throw new UsageError(
      `GET /iam/clients/me answered ${me.status}; the suite needs it to verify the token first.`,
    );

  let projectId = options.projectId;
  if (projectId === undefined) {
    const projects = await reach(http.call({ method: "GET", path: "/cloud/v1/projects" }));
    const chosen =
      projects.status === 200
        ? records<Project>(projects.body, "results").find((p) => p.is_default === true)
        : undefined;
    if (typeof chosen?.id !== "number")
      throw new UsageError(
        `No default project found (GET /cloud/v1/projects answered ${projects.status}); pass one with --project-id.`,
      );
    projectId = chosen.id;
  }

  // Only regions in the state the spec names are to be used; the whole list is read to find or
  // check one.
  const usable = usableRegionState();
  const regions = await allRegions(http, reach, usable);
  let region: Partial<Region> | undefined;
  if (options.regionId !== undefined) {
    region = regions.find((r) => r.id === options.regionId);
    if (!region) throw new UsageError(`--region-id ${options.regionId} is not in GET ${REGIONS}.`);
    if (region.state !== usable)
      throw new UsageError(
        `--region-id ${options.regionId} is ${region.state}; only ${usable} regions may be used.`,
      );
  } else {
    const active = regions.filter((r) => r.state === usable && typeof r.id === "number");
    region =
      active.find((r) => Array.isArray(r.available_volume_types) && r.available_volume_types.length > 0) ??
      active[0];
  }
  if (typeof region?.id !== "number")
    throw new UsageError(`No ${usable} region in GET ${REGIONS}; pass one with --region-id.`);

  return {
    projectId,
    regionId: region.id,
    regionName: String(region.display_name ?? region.id),
    volumeType: Array.isArray(region.available_volume_types) ? region.available_volume_types[0] : undefined,
    protectionProfileId: options.protectionProfileId ?? target.hints.protectionProfileId,
    gpuFlavor: options.gpuFlavor ?? target.hints.gpuFlavor,
  };
}

type Project = components["schemas"]["Project"];
type Region = components["schemas"]["Region"];

const REGIONS = "/cloud/v1/regions";

const listRegions = () => operationAt("get", REGIONS);

/** Every region, a page of the largest size the spec allows (its limit's maximum) at a time. */
async function allRegions(
  http: Http,
  reach: <T>(answer: Promise<T>) => Promise<T>,
  usable: string,
): Promise<Partial<Region>[]> {
  const list = offsetList(listRegions());
  const walk = await walkOffsetList(
    list,
    (query) => reach(http.send({ method: "GET", path: REGIONS, query })),
    {
      limit: largestPage(list),
      maxPages: 20,
      refused: (answer) => {
        throw new UsageError(
          `GET ${REGIONS} answered ${answer.status}; the suite needs it to pick an ${usable} region.`,
        );
      },
    },
  );
  return walk.items.filter(isRecord) as Partial<Region>[];
}

/** The region state the spec says to use: the one its Region schema shows ("ACTIVE"). */
function usableRegionState(): string {
  const operation = listRegions();
  const items = offsetList(operation).pagination.itemsField;
  const states = valuesOf(
    schemaAt(successSchemaPointer(operation), "properties", items, "items", "properties", "state"),
  );
  if (states.length !== 1)
    throw new Error(
      `The spec's region schema shows ${states.length} states (${states.join(", ")}); the suite expects the one usable state.`,
    );
  return states[0] as string;
}

/** The records under `field` of a body, whatever else the body holds. */
function records<T>(body: unknown, field: string): Partial<T>[] {
  const items = fieldOf(body, field);
  return Array.isArray(items) ? (items.filter(isRecord) as Partial<T>[]) : [];
}
