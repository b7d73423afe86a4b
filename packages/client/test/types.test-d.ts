// Type-level tests: the generated types say what the seed says. A field the seed lists without
// saying it is always present (the description's x-inferred-required) is optional.
import type { MODEL } from "@platform-api/spec/generated/model";
import { describe, expectTypeOf, it } from "vitest";
import { createClient as createCloudClient } from "../src/generated/products/cloud.js";
import { createClient as createIamClient, type IamClient } from "../src/generated/products/iam.js";
import type { components, FinishedTask, ItemOf, ListPaths, PathsOf, paths, TaskScope } from "../src/index.js";
import { createClient, paginate, waitForTask, waitForTasks } from "../src/index.js";

type SpecOperation = (typeof MODEL)["operations"][number];
/** A parameter of an operation, as the spec model states it. */
type SpecParameter<Id extends SpecOperation["operationId"], Name extends string> = Extract<
  Extract<SpecOperation, { operationId: Id }>["parameters"][number],
  { name: Name }
>;

type Schemas = components["schemas"];
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;

describe("generated types", () => {
  it("types a regions list with a numeric count and region records, present where the platform requires them", () => {
    type RegionList = Json<paths["/cloud/v1/regions"]["get"]["responses"][200]>;
    type Region = RegionList["results"][number];
    // The platform's published description requires these (merged into the spec, cited); the
    // seed only infers them.
    expectTypeOf<RegionList["count"]>().toEqualTypeOf<number>();
    expectTypeOf<Region["id"]>().toEqualTypeOf<number>();
    expectTypeOf<Region["country"]>().toEqualTypeOf<string>();
    expectTypeOf<Region["access_level"]>().toEqualTypeOf<"core" | "edge">();
    // Required only by the seed's inference (the platform's is a disagreement the seed wins).
    expectTypeOf<Region["available_volume_types"]>().toEqualTypeOf<string[] | undefined>();
  });

  it("keeps required what the seed states as required (a Required column, the quota list's envelope)", () => {
    expectTypeOf<Schemas["QuotaLimitRequestList"]["count"]>().toEqualTypeOf<number>();
    expectTypeOf<Schemas["QuotaLimitRequest"]["updated_at"]>().toEqualTypeOf<string | null>();
    expectTypeOf<Schemas["ProtectionProfile"]["plan"]>().toEqualTypeOf<string>();
  });

  it("types a task's state as the spec's states and its nullable fields as nullable", () => {
    // Required by the platform's published description.
    expectTypeOf<Schemas["Task"]["state"]>().toEqualTypeOf<
      (typeof MODEL)["conventions"]["taskPolling"]["states"][number]
    >();
    expectTypeOf<Schemas["Task"]["error"]>().toEqualTypeOf<string | null | undefined>();
    type Created = NonNullable<Schemas["Task"]["created_resources"]>;
    expectTypeOf<Created["volumes"]>().toEqualTypeOf<string[]>();
    expectTypeOf<null>().toExtend<Schemas["Task"]["created_resources"]>();
  });

  it("types query parameters with the spec's enums", () => {
    type Query = NonNullable<paths["/cloud/reseller/v1/limits_request"]["get"]["parameters"]["query"]>;
    type Status = SpecParameter<"listQuotaLimitRequests", "status">["items"]["enum"][number];
    expectTypeOf<Query["status"]>().toEqualTypeOf<Status[] | undefined>();
    type AiQuery = NonNullable<paths["/streaming/ai/tasks"]["get"]["parameters"]["query"]>;
    type TaskName = SpecParameter<"listAiTasks", "task_name">["enum"][number];
    expectTypeOf<AiQuery["task_name"]>().toEqualTypeOf<TaskName | undefined>();
  });

  it("keeps every limit field an optional number", () => {
    expectTypeOf<Schemas["GlobalLimits"]>().toExtend<{ project_count_limit?: number }>();
    expectTypeOf<Record<string, never>>().toExtend<Schemas["GlobalLimits"]>();
    expectTypeOf<Schemas["RegionalLimits"]["baremetal_gpu_count_limit"]>().toEqualTypeOf<
      number | undefined
    >();
  });
});

describe("createClient", () => {
  it("answers openapi-fetch's { data, error, response } with the operation's types", () => {
    const client = createClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const call = () => client.GET("/cloud/v1/regions", { params: { query: { limit: 10 } } });
    type Result = Awaited<ReturnType<typeof call>>;
    expectTypeOf<NonNullable<Result["data"]>["count"]>().toEqualTypeOf<number>();
    expectTypeOf<Result["response"]>().toEqualTypeOf<Response>();
  });

  it("types the body of a volume creation and its task list answer", () => {
    const client = createClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const call = () =>
      client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
        params: { path: { project_id: 1, region_id: 76 } },
        body: { name: "data", source: "new-volume", size: 10 },
      });
    type Result = Awaited<ReturnType<typeof call>>;
    expectTypeOf<NonNullable<Result["data"]>["tasks"]>().toEqualTypeOf<string[]>();
  });

  it("refuses a misspelt body or query property as openapi-fetch and the schema itself do (TS2353, TS2561 with a suggestion)", () => {
    type CreateVolumeRequest = Schemas["CreateVolumeRequest"];
    // The premise, from the generated types: the misspellings are not properties, the spellings are.
    expectTypeOf<"sise" | "typename">().not.toExtend<keyof CreateVolumeRequest>();
    expectTypeOf<"size" | "type_name">().toExtend<keyof CreateVolumeRequest>();
    // @ts-expect-error the schema has no "sise": the check every call below must keep
    const assigned: CreateVolumeRequest = { name: "data", source: "new-volume", sise: 10 };
    expectTypeOf(assigned).toEqualTypeOf<CreateVolumeRequest>();
    const client = createClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const cloud = createCloudClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const params = { path: { project_id: 1, region_id: 76 } };
    const calls = [
      () =>
        client.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
          params,
          // @ts-expect-error "sise" is not a property of CreateVolumeRequest
          body: { name: "data", source: "new-volume", sise: 10 },
        }),
      () =>
        cloud.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
          params,
          // @ts-expect-error "typename" is not a property of CreateVolumeRequest
          body: { name: "data", source: "new-volume", typename: "standard" },
        }),
      // @ts-expect-error "limt" is not a query parameter of the regions list
      () => client.GET("/cloud/v1/regions", { params: { query: { limt: 10 } } }),
      // The same calls spelt right compile.
      () =>
        cloud.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
          params,
          body: { name: "data", source: "new-volume", size: 10, type_name: "standard" },
        }),
      () => client.GET("/cloud/v1/regions", { params: { query: { limit: 10 } } }),
    ];
    expectTypeOf(calls).items.toBeFunction();
  });

  it("types per-product clients to their own product's paths only", () => {
    const cloud = createCloudClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const iam = createIamClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    type GetPaths<Product> = Extract<SpecOperation, { product: Product; method: "get" }>["path"];
    expectTypeOf(cloud.GET).parameter(0).toEqualTypeOf<GetPaths<"cloud">>();
    expectTypeOf(iam.GET).parameter(0).toEqualTypeOf<GetPaths<"iam">>();
    expectTypeOf<GetPaths<"iam">>().not.toExtend<GetPaths<"cloud">>();
    // @ts-expect-error the limit is an integer, not a string
    const badCall = () => cloud.GET("/cloud/v1/regions", { params: { query: { limit: "10" } } });
    expectTypeOf(badCall).toBeFunction();
  });

  it("lets waitForTask take only clients whose paths include an operation that starts a task", () => {
    // The premise, from the spec: cloud has an x-async-task operation, iam has none.
    expectTypeOf<Extract<SpecOperation, { asyncTask: object }>["product"]>().toExtend<"cloud">();
    const cloud = createCloudClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const all = createClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const iam = createIamClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    expectTypeOf<TaskScope<typeof cloud>>().toEqualTypeOf<unknown>();
    expectTypeOf<TaskScope<typeof all>>().toEqualTypeOf<unknown>();
    expectTypeOf<TaskScope<IamClient>>().not.toEqualTypeOf<unknown>();
    const waits = [
      () => waitForTask(cloud, "5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11"),
      () => waitForTasks(all, ["5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11"]),
      // @ts-expect-error the IAM client's paths start no task
      () => waitForTask(iam, "5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11"),
      // @ts-expect-error the IAM client's paths start no task
      () => waitForTasks(iam, []),
    ];
    expectTypeOf(waits).items.toBeFunction();
    const wait = () => waitForTask(cloud, "5a0a7c2e-6a3b-4f61-9a53-0d2d3c9b7e11");
    type Done = Awaited<ReturnType<typeof wait>>;
    expectTypeOf<Done["created_resources"]>().toEqualTypeOf<FinishedTask["created_resources"]>();
    expectTypeOf<Done["response"]>().toEqualTypeOf<Response>();
  });

  it("lets paginate take only the paginated lists of the client's own paths, typing items and pages from the list", () => {
    const cloud = createCloudClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const all = createClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    type Lists<Product> = Extract<
      SpecOperation,
      { product: Product; method: "get"; pagination: object }
    >["path"];
    // The premise, from the spec: the whole API has page lists beyond cloud's offset lists.
    expectTypeOf<Lists<"streaming">>().not.toBeNever();
    expectTypeOf(paginate<typeof all, Lists<string>>)
      .parameter(1)
      .toEqualTypeOf<Lists<string>>();
    expectTypeOf<ListPaths<PathsOf<typeof cloud>>>().toEqualTypeOf<Lists<"cloud">>();
    expectTypeOf<ListPaths<PathsOf<typeof all>>>().toEqualTypeOf<Lists<string>>();
    const walks = [
      () => paginate(all, "/streaming/ai/tasks"),
      // @ts-expect-error the cloud client has no streaming paths
      () => paginate(cloud, "/streaming/ai/tasks"),
      // @ts-expect-error a project is not a paginated list
      () => paginate(all, "/iam/clients/me"),
      // @ts-expect-error limit is an integer, not a string
      () => paginate(cloud, "/cloud/v1/regions", { params: { query: { limit: "2" } } }),
    ];
    expectTypeOf(walks).items.toBeFunction();
    const regions = () => paginate(cloud, "/cloud/v1/regions").toArray();
    type Region = Awaited<ReturnType<typeof regions>>[number];
    expectTypeOf<Region>().toEqualTypeOf<ItemOf<paths, "/cloud/v1/regions">>();
    expectTypeOf<Region["id"]>().toEqualTypeOf<number>();
  });
});
