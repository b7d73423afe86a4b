// Ordinary traffic of the project's own client, the way a program uses the platform: it reads the
// account, walks every offset list and the AI task list (several pages each), creates volumes and
// waits for their tasks (one of them beyond any quota, so it ends in ERROR), reads a task that does
// not exist, calls the reseller API with a client token by mistake, and sends bursts until one
// meets the rate limit. Each step catches its own failure: against a faulty server the traffic goes on,
// as a user's program would, and what it met is for the judge to say.
//
// Which lists, which parameters and which bounds all come from the spec model.

import { createClient, paginate, waitForTasks } from "@platform-api/client";
import { operationById, paginatedOperations, requireParameter } from "@platform-api/spec";
import { listFilters, listOrderings } from "../src/facts/list-facts.js";
import { requestExample, requestSchemaPointer, schemaAt, specModel } from "../src/facts/spec.js";
import { fieldOf, isRecord } from "../src/shared/json.js";

export interface ClientTraffic {
  baseUrl: string;
  apiKey: string;
  resellerApiKey: string;
  /** Multiplies the tasks' poll interval (the simulators of the tests run tasks 100 times faster). */
  pollIntervalMs: number;
  /** The client's fetch (the byte-for-byte test records what it sees); default the global one. */
  fetch?: typeof fetch;
  /**
   * false: no bursts, for a test about what the lists answer (up to 1,200 requests that only the
   * rate rules judge). Default true.
   */
  bursts?: boolean;
}

const model = specModel();
const pathOf = (operationId: string) => operationById(model, operationId).path;
const createVolume = operationById(model, "createVolume");
const sizeMaximum = schemaAt(requestSchemaPointer(createVolume), "properties", "size")?.maximum;
/** A volume no quota allows (the spec gives size no maximum). */
const BEYOND_ANY_QUOTA = typeof sizeMaximum === "number" ? sizeMaximum : 2 ** 31 - 1;
const source = requestExample(createVolume)?.source;

/** Runs the whole traffic once; never throws for what the server answered. */
export async function runClientTraffic(options: ClientTraffic): Promise<string[]> {
  const met: string[] = [];
  const step = async (name: string, body: () => Promise<unknown>) => {
    try {
      await body();
    } catch (error) {
      met.push(`${name}: ${(error as Error).message}`);
    }
  };
  const common = {
    baseUrl: options.baseUrl,
    fetch: options.fetch,
    maxRetries: 3,
    retry: { initialDelayMs: 50, maxDelayMs: 200 },
  };
  const client = createClient({ ...common, apiKey: options.apiKey, resellerApiKey: options.resellerApiKey });
  // Loose calls: the lists and operations are picked from the spec model at run time.
  const loose = client as unknown as {
    GET(path: string, init?: object): Promise<{ data?: unknown; response: Response }>;
    POST(path: string, init?: object): Promise<{ data?: unknown; response: Response }>;
  };
  const walk = paginate as unknown as (
    client: unknown,
    path: string,
    init?: object,
  ) => AsyncIterable<unknown>;

  let projectId: number | undefined;
  let region: Record<string, unknown> | undefined;
  await step("account", () => client.GET("/iam/clients/me"));
  await step("projects", async () => {
    const { data } = await loose.GET(pathOf("listProjects"));
    const projects = fieldOf(data, "results");
    const project = Array.isArray(projects)
      ? projects.find((p) => fieldOf(p, "is_default") === true)
      : undefined;
    projectId = typeof fieldOf(project, "id") === "number" ? (fieldOf(project, "id") as number) : undefined;
  });
  await step("regions", async () => {
    for await (const r of walk(client, pathOf("listRegions"), { params: { query: { limit: 3 } } }))
      if (!region && isRecord(r) && r.state === "ACTIVE") region = r;
  });
  const path = { project_id: projectId, region_id: fieldOf(region, "id") };

  // Every offset list in about four pages (fetched four at a time by the client): a first page of
  // one says how many items there are.
  for (const operation of paginatedOperations(model, "offset")) {
    if (operation.pagination?.style !== "offset") continue;
    const { limitParam, countField } = operation.pagination;
    const limit = requireParameter(operation, limitParam, "query");
    await step(`walk ${operation.operationId}`, async () => {
      const { data } = await loose.GET(operation.path, { params: { path, query: { [limit.name]: 1 } } });
      const count = fieldOf(data, countField);
      const size = Math.min(
        limit.maximum ?? Number.POSITIVE_INFINITY,
        Math.max(2, Math.ceil(Number(count) / 4) || 3),
      );
      for await (const _ of walk(client, operation.path, {
        params: { path, query: { [limit.name]: size } },
      })) {
        // every item read: the walk is the traffic
      }
    });
  }
  // Every page list, filtered, two items a page: the client follows `next`.
  for (const operation of paginatedOperations(model, "page")) {
    if (operation.pagination?.style !== "page") continue;
    const limit = requireParameter(operation, operation.pagination.limitParam, "query");
    const filter = operation.parameters.find((p) => p.in === "query" && p.enum && p.name !== "ordering");
    const query = { [limit.name]: 2, ...(filter?.enum ? { [filter.name]: filter.enum[0] } : {}) };
    await step(`walk ${operation.operationId}`, async () => {
      for await (const _ of walk(client, operation.path, { params: { query } })) {
        // every item read
      }
    });
  }

  // Every list's documented filters (the values the spec enumerates, two at most) and orderings,
  // three items a page: a program that selects and sorts what it reads.
  for (const operation of paginatedOperations(model)) {
    const limitName = operation.pagination?.limitParam ?? "limit";
    const queries = [
      ...listFilters(operation).flatMap((f) =>
        (f.parameter.enum ?? f.parameter.items?.enum ?? [])
          .slice(0, 2)
          .map((v) => ({ [f.parameter.name]: f.many ? [v] : v })),
      ),
      ...listOrderings(operation).flatMap((o) => o.byField.map((field) => ({ [o.parameter.name]: field }))),
    ];
    for (const query of queries)
      await step(`walk ${operation.operationId} ${JSON.stringify(query)}`, async () => {
        for await (const _ of walk(client, operation.path, {
          params: { path, query: { [limitName]: 3, ...query } },
        })) {
          // every item read
        }
      });
  }

  const types = fieldOf(region, "available_volume_types");
  const volume = (size: number) => ({
    name: `traffic-${size}`,
    size,
    ...(typeof source === "string" ? { source } : {}),
    ...(Array.isArray(types) && typeof types[0] === "string" ? { type_name: types[0] } : {}),
  });
  for (const size of [1, 2, BEYOND_ANY_QUOTA])
    await step(`volume of ${size} GiB`, async () => {
      const { data } = await loose.POST(createVolume.path, { params: { path }, body: volume(size) });
      const tasks = fieldOf(data, "tasks");
      if (!Array.isArray(tasks)) throw new Error("no tasks in the answer");
      await waitForTasks(client, tasks as string[], {
        timeoutMs: 30_000,
        pollIntervalMs: options.pollIntervalMs,
      });
    });
  await step("a task that does not exist", () =>
    loose.GET(pathOf("getTask"), { params: { path: { task_id: "00000000-0000-4000-8000-000000000000" } } }),
  );

  // A program configured with its client token where the reseller token belongs.
  const mistaken = createClient({ ...common, apiKey: options.apiKey, resellerApiKey: options.apiKey });
  await step("reseller API with a client token", () =>
    (mistaken as unknown as typeof loose).GET(pathOf("listQuotaLimitRequests")),
  );

  // Bursts of one and a half times the platform's rate, the client's own limiter off, until one
  // meets the server's 429 (at most eight: on a loaded machine a burst reaches the server slower).
  // The client retries the 429s after their Retry-After, as a program would.
  const rate = model.conventions.requestRate;
  let limited = false;
  const seeing: typeof fetch = async (input, init) => {
    const answer = await (options.fetch ?? fetch)(input, init);
    if (answer.status === rate.exceededStatus) limited = true;
    return answer;
  };
  const burst = createClient({ ...common, fetch: seeing, apiKey: options.apiKey, rateLimit: false });
  await step("burst", async () => {
    for (let round = 0; round < 8 && !limited && options.bursts !== false; round++)
      await Promise.all(
        Array.from({ length: Math.ceil(rate.limit * 1.5) }, () =>
          (burst as unknown as typeof loose).GET(pathOf("listRegions"), { params: { query: { limit: 1 } } }),
        ),
      );
  });
  return met;
}
