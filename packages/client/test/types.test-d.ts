// Type-level tests: the generated types say what the seed says.
import { describe, expectTypeOf, it } from "vitest";
import type { components, paths } from "../src/index.js";
import { createClient } from "../src/index.js";
import { createClient as createCloudClient } from "../src/products/cloud.js";
import { createClient as createIamClient } from "../src/products/iam.js";

type Schemas = components["schemas"];
type Json<T> = T extends { content: { "application/json": infer B } } ? B : never;

describe("generated types", () => {
  it("types a regions list with a numeric count and region records", () => {
    type RegionList = Json<paths["/cloud/v1/regions"]["get"]["responses"][200]>;
    expectTypeOf<RegionList["count"]>().toEqualTypeOf<number>();
    expectTypeOf<RegionList["results"][number]["access_level"]>().toEqualTypeOf<"core" | "edge">();
    expectTypeOf<RegionList["results"][number]["available_volume_types"]>().toEqualTypeOf<string[]>();
  });

  it("types a task's state as the four-value union and its nullable fields as nullable", () => {
    expectTypeOf<Schemas["Task"]["state"]>().toEqualTypeOf<"NEW" | "RUNNING" | "FINISHED" | "ERROR">();
    expectTypeOf<Schemas["Task"]["error"]>().toEqualTypeOf<string | null>();
    type Created = NonNullable<Schemas["Task"]["created_resources"]>;
    expectTypeOf<Created["volumes"]>().toEqualTypeOf<string[]>();
    expectTypeOf<null>().toExtend<Schemas["Task"]["created_resources"]>();
  });

  it("types query parameters with the seed's enums", () => {
    type Query = NonNullable<paths["/cloud/reseller/v1/limits_request"]["get"]["parameters"]["query"]>;
    expectTypeOf<Query["status"]>().toEqualTypeOf<("done" | "in progress" | "rejected")[] | undefined>();
    type AiQuery = NonNullable<paths["/streaming/ai/tasks"]["get"]["parameters"]["query"]>;
    expectTypeOf<AiQuery["task_name"]>().toEqualTypeOf<"transcription" | "content-moderation" | undefined>();
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
        body: { name: "data", size: 10 },
      });
    type Result = Awaited<ReturnType<typeof call>>;
    expectTypeOf<NonNullable<Result["data"]>["tasks"]>().toEqualTypeOf<string[]>();
  });

  it("types per-product clients to their own product's paths only", () => {
    const cloud = createCloudClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    const iam = createIamClient({ apiKey: "key$1", baseUrl: "http://127.0.0.1:1" });
    expectTypeOf(cloud.GET)
      .parameter(0)
      .toEqualTypeOf<
        | "/cloud/v1/tasks"
        | "/cloud/v1/tasks/{task_id}"
        | "/cloud/v1/projects"
        | "/cloud/v1/regions"
        | "/cloud/v1/instances/{project_id}/{region_id}"
        | "/cloud/reseller/v1/limits_request"
      >();
    expectTypeOf(iam.GET).parameter(0).toEqualTypeOf<"/iam/clients/me">();
    // @ts-expect-error the limit is an integer, not a string
    const badCall = () => cloud.GET("/cloud/v1/regions", { params: { query: { limit: "10" } } });
    expectTypeOf(badCall).toBeFunction();
  });
});
