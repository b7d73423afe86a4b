// Before any scenario: reach the target, check the key, and find the project and region to use
// (the default project and an ACTIVE region, unless given). Anything wrong here is a usage or
// configuration problem (exit 2), not a finding about the target.

import type { RunContext } from "./context.js";
import { createHttp, NoAnswerError } from "./http.js";
import { type ConformanceOptions, DEFAULTS, UsageError } from "./options.js";
import { createPacer } from "./pacer.js";
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
  const get = async (path: string, query = {}) => {
    try {
      return await http.call({ method: "GET", path, query });
    } catch (error) {
      if (error instanceof NoAnswerError)
        throw new UsageError(
          `The target ${target.label} cannot be reached: ${error.message}. Is it running, and is the URL right?`,
        );
      throw error;
    }
  };

  const me = await get("/iam/clients/me");
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
    const projects = await get("/cloud/v1/projects");
    const list: any[] = Array.isArray(projects.body?.results) ? projects.body.results : [];
    const chosen = list.find((p) => p?.is_default === true) ?? undefined;
    if (projects.status !== 200 || typeof chosen?.id !== "number")
      throw new UsageError(
        `No default project found (GET /cloud/v1/projects answered ${projects.status}); pass one with --project-id.`,
      );
    projectId = chosen.id;
  }

  // Only ACTIVE regions are to be used (the seed); walk the whole list to find or check one.
  const regions: any[] = [];
  for (let offset = 0, pages = 0; pages < 20; pages++) {
    const page = await get("/cloud/v1/regions", { limit: 1000, offset });
    if (page.status !== 200 || !Array.isArray(page.body?.results))
      throw new UsageError(
        `GET /cloud/v1/regions answered ${page.status}; the suite needs it to pick an ACTIVE region.`,
      );
    regions.push(...page.body.results);
    offset += 1000;
    if (page.body.results.length === 0 || offset >= Number(page.body.count)) break;
  }
  let region: any;
  if (options.regionId !== undefined) {
    region = regions.find((r) => r?.id === options.regionId);
    if (!region) throw new UsageError(`--region-id ${options.regionId} is not in GET /cloud/v1/regions.`);
    if (region.state !== "ACTIVE")
      throw new UsageError(
        `--region-id ${options.regionId} is ${region.state}; only ACTIVE regions may be used.`,
      );
  } else {
    const active = regions.filter((r) => r?.state === "ACTIVE" && typeof r.id === "number");
    region =
      active.find((r) => Array.isArray(r.available_volume_types) && r.available_volume_types.length > 0) ??
      active[0];
    if (!region)
      throw new UsageError("No ACTIVE region in GET /cloud/v1/regions; pass one with --region-id.");
  }

  return {
    projectId: projectId as number,
    regionId: region.id,
    regionName: String(region.display_name ?? region.id),
    volumeType: Array.isArray(region.available_volume_types) ? region.available_volume_types[0] : undefined,
    protectionProfileId: options.protectionProfileId ?? target.hints.protectionProfileId,
    gpuFlavor: options.gpuFlavor ?? target.hints.gpuFlavor,
  };
}
