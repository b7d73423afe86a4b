// Smoke test of the Prism mock (`pnpm mock`): every operation of the spec model is called once
// through the typed client, its path values from the fixture registry's sources in the mock's world
// (an id a list answers) or the description's examples, its body the description's example; every
// answer must validate against the description.
import {
  checkFixtures,
  createSpecValidator,
  FIXTURES,
  listItemsField,
  loadBundle,
  loadModel,
  type OperationModel,
  operationById,
  type ParameterModel,
  resolveRef,
} from "@platform-api/spec";
import { startPrismMock } from "@platform-api/spec/mock";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createClient, type PlatformClient } from "../src/index.js";

const validator = createSpecValidator(loadBundle());
let mock: { url: string; close: () => Promise<void> };
let client: PlatformClient;

beforeAll(async () => {
  mock = await startPrismMock({ port: 0 });
  client = createClient({
    apiKey: "2971$mock-token",
    resellerApiKey: "8812$mock-reseller",
    baseUrl: mock.url,
  });
});
afterAll(() => mock?.close());

type Call = () => Promise<{ data?: unknown; error?: unknown; response: Response }>;
type Send = (path: string, init: object) => ReturnType<Call>;

const doc = loadBundle();
const model = loadModel();
checkFixtures(model, FIXTURES);

/** The description's node at a reference or pointer, every `$ref` followed. */
const nodeAt = (node: unknown): Record<string, unknown> =>
  resolveRef<Record<string, unknown>>(doc, node) ?? {};

/** The operation's JSON request body as the description's first example shows it. */
function bodyExample(operation: OperationModel): unknown {
  const media = nodeAt(
    nodeAt(nodeAt(nodeAt({ $ref: operation.pointer }).requestBody).content)["application/json"],
  );
  return Object.values(nodeAt(media.examples)).map((e) => nodeAt(e).value)[0] ?? media.example;
}

/**
 * A path value as the mock's world has it: the field of the first item the list the fixture
 * registry names answers, else (a place, a created resource) the description's example.
 */
async function pathValue(operation: OperationModel, parameter: ParameterModel): Promise<unknown> {
  const from = FIXTURES[operation.operationId as keyof typeof FIXTURES].path[parameter.name]?.from;
  if (from && "list" in from) {
    const list = operationById(model, from.list);
    const { data } = await (client.GET as Send)(list.path, {});
    const items = (data as Record<string, unknown> | undefined)?.[listItemsField(model, from) ?? ""];
    const first = Array.isArray(items) ? (items[0] as Record<string, unknown> | undefined) : undefined;
    if (first?.[from.field] !== undefined) return first[from.field];
  }
  return parameter.example;
}

/** Each operation called through the typed client's method of its own: the model's, not a table. */
const calls: [method: string, template: string, call: Call][] = model.operations.map((operation) => {
  const method = operation.method.toUpperCase();
  return [
    method,
    operation.path,
    async () => {
      const send = (client as unknown as Record<string, Send>)[method] as Send;
      const parameters = operation.parameters.filter(
        (p) => p.in === "path" || (p.in === "query" && p.required),
      );
      const values = await Promise.all(
        parameters.map(async (p) => [p, await pathValue(operation, p)] as const),
      );
      const of = (where: string) =>
        Object.fromEntries(values.filter(([p]) => p.in === where).map(([p, v]) => [p.name, v]));
      const body = bodyExample(operation);
      return send.call(client, operation.path, {
        params: { path: of("path"), query: of("query") },
        ...(body === undefined ? {} : { body }),
      });
    },
  ];
});

describe("Prism mock of the bundled description", () => {
  it("is called for every operation of the description", () => {
    const all = Object.entries(doc.paths as Record<string, Record<string, unknown>>).flatMap(([p, item]) =>
      Object.keys(item)
        .filter((k) => ["get", "put", "post", "delete", "patch"].includes(k))
        .map((m) => `${m.toUpperCase()} ${p}`),
    );
    expect(calls.map(([m, t]) => `${m} ${t}`).sort()).toEqual(all.sort());
  });

  it.each(calls)(
    "%s %s answers with a success that validates against the spec",
    async (method, template, call) => {
      const { data, response } = await call();
      expect(response.status, `${method} ${template}`).toBeGreaterThanOrEqual(200);
      expect(response.status).toBeLessThan(300);
      const errors = validator.validateResponse({
        method,
        path: template,
        status: response.status,
        contentType: response.headers.get("content-type"),
        body: data,
        hasBody: data !== undefined,
      });
      expect(errors).toEqual([]);
    },
  );

  it("answers a call without a token with a documented 401", async () => {
    const response = await fetch(`${mock.url}/iam/clients/me`);
    expect(response.status).toBe(401);
    const body = await response.text();
    expect(
      validator.validateResponse({
        method: "GET",
        path: "/iam/clients/me",
        status: response.status,
        contentType: response.headers.get("content-type"),
        body: body ? JSON.parse(body) : undefined,
      }),
    ).toEqual([]);
  });
});
