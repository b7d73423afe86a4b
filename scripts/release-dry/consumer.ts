// A consumer of the packed @platform-api/client, as someone who installed it from the registry
// would write it. scripts/release-dry.mjs compiles it against the tarball's types (strict, NodeNext,
// no skipLibCheck) and runs it against the simulator, whose URL and token it passes in the
// environment. Any failed expectation throws, so node exits non-zero.
import { type components, createClient, paginate } from "@platform-api/client";

// `types: []` keeps @types/node out, so that only the client's own declarations are compiled; this
// is the one Node global the program needs.
declare const process: { env: Record<string, string | undefined> };

const baseUrl = process.env.RELEASE_DRY_BASE_URL;
const apiKey = process.env.RELEASE_DRY_API_KEY;
if (!baseUrl || !apiKey) throw new Error("RELEASE_DRY_BASE_URL and RELEASE_DRY_API_KEY must be set");

function expect(condition: boolean, what: string): asserts condition {
  if (!condition) throw new Error(`consumer check failed: ${what}`);
}

const client = createClient({ apiKey, baseUrl });

const me = await client.GET("/iam/clients/me");
expect(me.data !== undefined, `GET /iam/clients/me answered ${me.response.status}`);
const account: components["schemas"]["ClientAccount"] = me.data;
expect(Number.isInteger(account.id), `the account id is an integer (got ${String(account.id)})`);
// The spec requires email only by inference (x-inferred-required): the types say it may be absent.
expect(account.email?.includes("@") === true, "the account has an email address");

// A small page size, so that the walk really follows several pages.
const first = await client.GET("/cloud/v1/regions", { params: { query: { limit: 2 } } });
expect(first.data !== undefined, `GET /cloud/v1/regions answered ${first.response.status}`);
const count = first.data.count ?? 0;
expect(count > 2, `more regions (${count}) than one page of 2, so that the walk pages`);

const regions = await paginate(client, "/cloud/v1/regions", { params: { query: { limit: 2 } } }).toArray();
expect(regions.length === count, `the walk returned ${regions.length} regions, count says ${count}`);
expect(new Set(regions.map((region) => region.id)).size === count, "the walk repeated no region");
const levels: ReadonlyArray<"core" | "edge" | undefined> = regions.map((region) => region.access_level);
expect(
  levels.every((level) => level === "core" || level === "edge"),
  "every access_level is core or edge",
);

// Whole pages come with the answer each came in (its status and headers).
for await (const page of paginate(client, "/cloud/v1/regions", { params: { query: { limit: 2 } } }).pages())
  expect(page.response.status === 200, `a page of regions answered ${page.response.status}`);

// The platform's published description requires these (merged into the spec beside the seed): the
// types say they are always there.
const [region] = regions;
expect(region !== undefined, "the walk returned a region");
const regionId: number = region.id;
const country: string = region.country;
expect(Number.isInteger(regionId) && /^\w{2}$/.test(country), `region ${regionId} is in country ${country}`);

// A filter the platform documents as repeatable: sent as the key once per value.
const states: ("FINISHED" | "ERROR")[] = ["FINISHED", "ERROR"];
const tasks = await client.GET("/cloud/v1/tasks", { params: { query: { state: states } } });
expect(tasks.data !== undefined, `GET /cloud/v1/tasks answered ${tasks.response.status}`);
const listed = (tasks.data as { results?: { state?: string }[] }).results ?? [];
expect(
  listed.every((task) => states.some((state) => state === task.state)),
  "every task listed is FINISHED or ERROR",
);

console.log(`consumer: account ${account.id}, ${regions.length} regions walked in pages of 2`);

// Deliberate misuses, never called: each must stay a type error. If the published types decayed to
// `any`, these lines would compile, the @ts-expect-error would be unused, and tsc would fail.
export function misuses(): string {
  // @ts-expect-error the spec has no such path
  void client.GET("/iam/clients/everyone");
  // @ts-expect-error limit is an integer, not a string
  void paginate(client, "/cloud/v1/regions", { params: { query: { limit: "2" } } });
  // The body of a write is checked as strictly as its parameters: a misspelt field is an error
  // (TS2353, TS2561), while the call spelt right (the last of the three) compiles.
  const path = { project_id: 1, region_id: regionId };
  void client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
    params: { path },
    // @ts-expect-error "sise" is not a field of CreateVolumeRequest
    body: { name: "data", source: "new-volume", sise: 10 },
  });
  void client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
    params: { path },
    // @ts-expect-error "typename" is not a field of CreateVolumeRequest (type_name is)
    body: { name: "data", source: "new-volume", typename: "standard" },
  });
  void client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
    params: { path },
    body: { name: "data", source: "new-volume", size: 10, type_name: "standard" },
  });
  // @ts-expect-error an account id is a number
  const id: string = account.id;
  // @ts-expect-error a region's country is a string
  const where: number = region?.country;
  void where;
  return id;
}
