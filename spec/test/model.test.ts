// The spec model (src/model) that every package reads the description through: it reads every
// operation and convention the description states, says so where the description states nothing,
// and refuses a description it cannot model with a message that names what is wrong.
import { describe, expect, it } from "vitest";
import {
  asyncTaskOperations,
  buildModel,
  createSpecValidator,
  documentsStatus,
  findOperation,
  matchOperation,
  type OperationModel,
  operationById,
  paginatedOperations,
  pollingAdviceFor,
  productOperations,
  requireParameter,
  resolvePointer,
  responseFor,
  taskPollingOf,
  usesScheme,
} from "../lib/index.js";
import {
  arrayAt,
  at,
  isObject,
  type Json,
  loadBundle,
  loadModel,
  objectAt,
  operationNode,
  schemaOf,
} from "./bundle.js";
import { operations as seed } from "./seed-table.js";

const doc = loadBundle(undefined, { seed: true });
const model = loadModel(undefined, { seed: true });

/** "string|null" for ["null", "string"]: the seed table's way of writing a type. */
const typeName = (type: unknown): string =>
  (Array.isArray(type) ? type.map(String) : type === undefined ? [] : [String(type)]).sort().join("|");
const sorted = (values: readonly unknown[] | undefined) => (values ? values.map(String).sort() : undefined);

/** A raw extension without the `x-unspecified` notes the model leaves out. */
function extension(op: OperationModel, name: string): Json | undefined {
  const value = operationNode(doc, op)[name];
  if (!isObject(value)) return undefined;
  const { "x-unspecified": _open, ...rest } = value;
  return rest;
}

/** A copy of the bundle with one change made to it. */
function changed(change: (copy: Json) => void): Json {
  const copy = structuredClone(doc);
  change(copy);
  return copy;
}

describe("the model's operations", () => {
  it("are the seed's operations, in the description's order", () => {
    expect(model.operations.map((o) => o.key).sort()).toEqual(Object.keys(seed).sort());
    const order = Object.entries(objectAt(doc, "paths")).flatMap(([path, item]) =>
      Object.keys(isObject(item) ? item : {}).flatMap((method) =>
        findOperation(model, method, path) ? [`${method.toUpperCase()} ${path}`] : [],
      ),
    );
    expect(model.operations.map((o) => o.key)).toEqual(order);
  });

  it("carry each operation's operationId, x-product and summary from its node", () => {
    for (const op of model.operations) {
      const node = operationNode(doc, op);
      expect(op.operationId, op.key).toBe(node.operationId);
      expect(op.product, op.key).toBe(node["x-product"]);
      expect(op.summary, op.key).toBe(node.summary);
      expect(op.tags, op.key).toEqual(node.tags);
    }
    expect([...model.products].sort()).toEqual([...new Set(model.operations.map((o) => o.product))].sort());
    for (const product of model.products)
      expect(productOperations(model, product).every((o) => o.product === product)).toBe(true);
  });

  it("name the seed's security scheme, the root's where the operation has none", () => {
    expect(model.defaultSecurity).toEqual(
      arrayAt(doc, "security").flatMap((s) => Object.keys(isObject(s) ? s : {})),
    );
    for (const [key, facts] of Object.entries(seed)) {
      const op = findOperation(model, facts.method, facts.path);
      expect(op?.security, key).toEqual([facts.security]);
      expect(op && usesScheme(op, facts.security), key).toBe(true);
    }
    expect(model.securitySchemes.map((s) => s.name).sort()).toEqual(
      Object.keys(objectAt(doc, "components", "securitySchemes")).sort(),
    );
  });

  it("have the seed's parameters: place, requirement, type, bounds, default and enum", () => {
    const out: string[] = [];
    for (const [key, facts] of Object.entries(seed)) {
      const op = findOperation(model, facts.method, facts.path);
      if (!op) throw new Error(`${key} is missing`);
      expect(op.parameters.map((p) => p.name).sort(), key).toEqual(Object.keys(facts.parameters).sort());
      for (const [name, pf] of Object.entries(facts.parameters)) {
        const p = requireParameter(op, name);
        const actual = {
          in: p.in,
          required: p.required,
          type: typeName(p.type),
          format: p.format,
          minimum: p.minimum,
          maximum: p.maximum,
          default: p.default,
          enum: sorted(p.enum),
        };
        const expected = {
          in: pf.in,
          required: Boolean(pf.required),
          type: typeName(pf.type.split("|")),
          format: pf.format,
          minimum: pf.minimum,
          maximum: pf.maximum,
          default: pf.default,
          enum: sorted(pf.enum),
        };
        if (JSON.stringify(actual) !== JSON.stringify(expected))
          out.push(`${key} ${name}: ${JSON.stringify(actual)}, seed says ${JSON.stringify(expected)}`);
      }
    }
    expect(out).toEqual([]);
  });

  it("document the seed's statuses, success and error", () => {
    for (const [key, facts] of Object.entries(seed)) {
      const op = findOperation(model, facts.method, facts.path);
      const expected = [...Object.keys(facts.success), ...facts.errors.map(String)].sort();
      expect(op?.responses.map((r) => r.status).sort(), key).toEqual(expected);
      // A range ("2XX") documents every status in it.
      for (const status of expected)
        expect(op && documentsStatus(op, Number(status.replace(/XX$/, "99"))), `${key} ${status}`).toBe(true);
    }
  });

  it("point at schemas that resolve, each reference followed to its end", () => {
    const pointers = model.operations.flatMap((op) => [
      ...op.parameters.map((p) => [`${op.key} parameter ${p.name}`, p.schemaPointer] as const),
      ...(op.requestBody?.content ?? []).map((m) => [`${op.key} request`, m.schemaPointer] as const),
      ...op.responses.flatMap((r) =>
        r.content.map((m) => [`${op.key} ${r.status} ${m.contentType}`, m.schemaPointer] as const),
      ),
    ]);
    expect(pointers.length).toBeGreaterThan(50);
    for (const [where, schemaPointer] of pointers) {
      expect(schemaPointer, where).toBeDefined();
      const schema = resolvePointer<unknown>(doc, schemaPointer ?? "");
      expect(isObject(schema), `${where}: ${schemaPointer}`).toBe(true);
      expect(isObject(schema) && "$ref" in schema, `${where}: ${schemaPointer} is a reference`).toBe(false);
    }
  });

  it("point at the node of each operation", () => {
    for (const op of model.operations)
      expect(operationNode(doc, op)).toBe(at(doc, "paths", op.path, op.method));
  });
});

describe("the model's conventions", () => {
  it("take the request rate and every rate limit from x-rate-limits", () => {
    const raw = arrayAt(doc, "x-rate-limits").filter(isObject);
    expect(model.conventions.rateLimits.map((l) => l.id)).toEqual(raw.map((l) => l.id));
    const all = raw.find((l) => l.appliesTo === "all");
    expect(model.conventions.requestRate).toMatchObject({
      limit: all?.limit,
      periodSeconds: all?.periodSeconds,
      exceededStatus: all?.exceededStatus,
    });
  });

  it("follow a changed request rate and a changed server", () => {
    const copy = changed((d) => {
      const all = arrayAt(d, "x-rate-limits")
        .filter(isObject)
        .find((l) => l.appliesTo === "all");
      if (all) all.limit = 40;
      objectAt(d, "servers", 0, "variables", "base_url").default = "https://api.example.test";
    });
    expect(buildModel(copy).conventions.requestRate.limit).toBe(40);
    expect(buildModel(copy).conventions.defaultBaseUrl).toBe("https://api.example.test");
  });

  it("give each list its x-pagination, and no other operation one", () => {
    for (const op of model.operations) expect(op.pagination, op.key).toEqual(extension(op, "x-pagination"));
    const offset = paginatedOperations(model, "offset");
    const page = paginatedOperations(model, "page");
    expect(offset.length + page.length).toBe(paginatedOperations(model).length);
    expect(offset.length).toBeGreaterThan(0);
    expect(page.length).toBeGreaterThan(0);
    // Each list's paging parameters are parameters of that list.
    for (const op of offset) {
      requireParameter(op, op.pagination.limitParam, "query");
      requireParameter(op, op.pagination.offsetParam, "query");
    }
    for (const op of page) {
      requireParameter(op, op.pagination.limitParam, "query");
      requireParameter(op, op.pagination.pageParam, "query");
    }
  });

  it("give each asynchronous write its x-async-task, polled by the operation that reads tasks", () => {
    const writes = asyncTaskOperations(model);
    expect(writes.length).toBeGreaterThan(0);
    for (const op of model.operations) expect(op.asyncTask, op.key).toEqual(extension(op, "x-async-task"));
    const polling = taskPollingOf(model);
    for (const op of writes) {
      const poll = operationById(model, op.asyncTask?.pollOperationId ?? "");
      expect(poll.operationId).toBe(polling.operationId);
      expect(poll.method).toBe("get");
    }
  });

  it("take the polling intervals and terminal states from x-task-polling", () => {
    const polling = taskPollingOf(model);
    const carrier = model.operations.filter((op) => operationNode(doc, op)["x-task-polling"] !== undefined);
    expect(carrier.map((op) => op.operationId)).toEqual([polling.operationId]);
    const raw = objectAt(operationNode(doc, operationById(model, polling.operationId)), "x-task-polling");
    expect(polling.intervals).toEqual(raw.intervals);
    expect(polling.terminalStates).toEqual(raw.terminalStates);
    expect(polling.successState).toBe(raw.successState);
    expect(polling.terminalStates).toContain(polling.successState);
  });

  it("take the task states and created_resources keys from the Task schema", () => {
    const polling = taskPollingOf(model);
    const getTask = operationNode(doc, operationById(model, polling.operationId));
    const ok = schemaOf(doc, at(getTask, "responses", "200"));
    const task = schemaOf(doc, at(ok, "content", "application/json", "schema"));
    const state = schemaOf(doc, task?.properties?.state);
    const created = schemaOf(doc, task?.properties?.created_resources);
    expect(polling.states).toEqual(state?.enum);
    expect(polling.createdResourcesKeys).toEqual(Object.keys(created?.properties ?? {}));
    for (const s of polling.terminalStates) expect(polling.states).toContain(s);
    for (const op of asyncTaskOperations(model))
      if (op.asyncTask?.createdResourcesKey)
        expect(polling.createdResourcesKeys, op.key).toContain(op.asyncTask.createdResourcesKey);
  });
});

describe("pollingAdviceFor", () => {
  const polling = taskPollingOf(model);

  it("gives the interval of a task type the spec lists", () => {
    const typed = polling.intervals.filter((row) => row.taskType);
    expect(typed.length).toBeGreaterThan(0);
    for (const row of typed)
      expect(pollingAdviceFor(model, row.taskType)).toEqual({ known: true, interval: row });
  });

  it("says known: false, and why, for a task type without a row, and invents no interval", () => {
    const unlisted = "task_type_without_a_row";
    expect(polling.intervals.map((r) => r.taskType)).not.toContain(unlisted);
    const advice = pollingAdviceFor(model, unlisted);
    expect(advice.known).toBe(false);
    expect(advice).not.toHaveProperty("interval");
    expect(advice.known ? "" : advice.reason).toContain(`"${unlisted}"`);
    // A row the seed names by operation only ("Create network or subnet") matches no task type.
    const untyped = polling.intervals.find((row) => !row.taskType);
    expect(untyped && pollingAdviceFor(model, untyped.operation).known).toBe(false);
  });

  it("says known: false for a task without a type and for a description without x-task-polling", () => {
    expect(pollingAdviceFor(model, undefined)).toMatchObject({ known: false });
    const withoutPolling = buildModel(
      changed((d) => {
        delete operationNode(d, operationById(model, polling.operationId))["x-task-polling"];
      }),
    );
    expect(withoutPolling.conventions.taskPolling).toBeUndefined();
    for (const row of polling.intervals)
      expect(pollingAdviceFor(withoutPolling, row.taskType)).toMatchObject({ known: false });
    expect(() => taskPollingOf(withoutPolling)).toThrow(/no x-task-polling/);
  });
});

describe("buildModel refuses a description it cannot model, saying what is wrong", () => {
  const [first] = model.operations;
  const [write] = asyncTaskOperations(model);
  if (!first || !write) throw new Error("the description has no operations to change");

  it("an operation without an operationId", () => {
    const copy = changed((d) => {
      delete operationNode(d, first).operationId;
    });
    expect(() => buildModel(copy)).toThrow(`${first.key} has no operationId.`);
  });

  it("an operation without an x-product", () => {
    const copy = changed((d) => {
      delete operationNode(d, first)["x-product"];
    });
    expect(() => buildModel(copy)).toThrow(`${first.key} (${first.operationId}) has no x-product.`);
  });

  it("an x-async-task whose pollOperationId is no operation", () => {
    const copy = changed((d) => {
      objectAt(operationNode(d, write), "x-async-task").pollOperationId = "noSuchOperation";
    });
    expect(() => buildModel(copy)).toThrow(
      `${write.operationId}'s x-async-task polls noSuchOperation, which is not an operation.`,
    );
  });

  it("an x-task-polling whose successState is not one of its terminal states", () => {
    const polling = taskPollingOf(model);
    const copy = changed((d) => {
      objectAt(operationNode(d, operationById(model, polling.operationId)), "x-task-polling").successState =
        "DONE";
    });
    expect(() => buildModel(copy)).toThrow(
      `x-task-polling's successState "DONE" is not one of its terminalStates`,
    );
  });

  it("an x-inferred-required naming a field its schema does not require", () => {
    const copy = changed((d) => {
      objectAt(d, "components", "schemas", "Task")["x-inferred-required"] = ["finished_on"];
    });
    expect(() => buildModel(copy)).toThrow(
      "x-inferred-required at #/components/schemas/Task names finished_on, which its schema does not require.",
    );
    const notAList = changed((d) => {
      objectAt(d, "components", "schemas", "Task")["x-inferred-required"] = "id";
    });
    expect(() => buildModel(notAList)).toThrow(
      "x-inferred-required at #/components/schemas/Task is not a list of field names.",
    );
  });

  it("an operationId used twice, no request rate, or no paths at all", () => {
    const [, second] = model.operations;
    const twice = changed((d) => {
      operationNode(d, second ?? first).operationId = first.operationId;
    });
    expect(() => buildModel(twice)).toThrow(`operationId ${first.operationId} is used twice`);
    const noRate = changed((d) => {
      d["x-rate-limits"] = arrayAt(d, "x-rate-limits").filter((l) => isObject(l) && l.appliesTo !== "all");
    });
    expect(() => buildModel(noRate)).toThrow(/appliesTo: all/);
    expect(() => buildModel({ openapi: "3.1.0" })).toThrow("Not an OpenAPI description: it has no `paths`.");
  });
});

describe("matchOperation", () => {
  /** A concrete path of an operation: each path parameter at its example, else a plain value. */
  const concrete = (op: OperationModel) =>
    op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
      encodeURIComponent(String(requireParameter(op, name, "path").example ?? `${name}-1`)),
    );

  it("matches every operation at a concrete path, with its path parameters", () => {
    for (const op of model.operations) {
      const found = matchOperation(model, op.method.toUpperCase(), concrete(op));
      expect(found?.operation.operationId, op.key).toBe(op.operationId);
      for (const p of op.parameters.filter((p) => p.in === "path"))
        expect(found?.params[p.name], `${op.key} ${p.name}`).toBe(String(p.example ?? `${p.name}-1`));
    }
  });

  it("prefers a literal segment over a template one, decodes parameters, and matches nothing else", () => {
    const mini = buildModel({
      paths: {
        "/things/{id}": { get: { operationId: "getThing", "x-product": "t", responses: {} } },
        "/things/special": { get: { operationId: "getSpecial", "x-product": "t", responses: {} } },
      },
      servers: [{ url: "https://t.example" }],
      "x-rate-limits": [
        { id: "r", appliesTo: "all", limit: 1, periodSeconds: 1, per: "ip", exceededStatus: 429 },
      ],
    });
    expect(matchOperation(mini, "GET", "/things/special")?.operation.operationId).toBe("getSpecial");
    expect(matchOperation(mini, "get", "/things/a%20b")).toMatchObject({
      operation: { operationId: "getThing" },
      params: { id: "a b" },
    });
    expect(matchOperation(mini, "GET", "/things/")).toBeUndefined();
    expect(matchOperation(mini, "GET", "/things/1/more")).toBeUndefined();
    expect(matchOperation(mini, "DELETE", "/things/1")).toBeUndefined();
  });
});

describe("createSpecValidator", () => {
  const validator = createSpecValidator(doc, model);

  it("refuses, on every operation, a status it does not document and a content type it does not", () => {
    for (const op of model.operations) {
      const undocumented = [418, 299, 599].find((s) => !responseFor(op, s));
      if (undocumented !== undefined)
        expect(
          validator.validateResponse({ method: op.method, path: op.path, status: undocumented }),
        ).toEqual([`status ${undocumented} is not documented for ${op.key}`]);
      const withBody = op.responses.find((r) => r.content.length > 0 && /^\d+$/.test(r.status));
      if (!withBody) continue;
      const errors = validator.validateResponse({
        method: op.method,
        path: op.path,
        status: Number(withBody.status),
        contentType: "text/x-not-documented",
        body: "x",
      });
      expect(errors.join(), op.key).toMatch(/content type "text\/x-not-documented" is not documented/);
    }
  });

  it("judges a body by the schema the model points at, formats included", () => {
    const getTask = operationById(model, taskPollingOf(model).operationId);
    const schemaPointer = responseFor(getTask, 200)?.content.find(
      (m) => m.contentType === "application/json",
    )?.schemaPointer;
    if (!schemaPointer) throw new Error(`${getTask.key} has no JSON answer`);
    const errors = validator.validateSchema(schemaPointer, { id: "not-a-uuid" });
    expect(errors).toEqual(expect.arrayContaining(['/id must match format "uuid"']));
    expect(
      validator.validateResponse({
        method: getTask.method,
        path: getTask.path,
        status: 200,
        contentType: "application/json",
        body: { id: "not-a-uuid" },
      }),
    ).toEqual(errors);
  });

  it("judges by the description it is given", () => {
    const [list] = paginatedOperations(model, "offset");
    if (!list) throw new Error("no offset list");
    const countField = list.pagination.countField;
    const schemaPointer = responseFor(list, 200)?.content[0]?.schemaPointer ?? "";
    const body = { [countField]: "1", [list.pagination.itemsField]: [] };
    expect(validator.validateSchema(schemaPointer, body)).toEqual([`/${countField} must be integer`]);
    const loose = changed((d) => {
      objectAt(resolvePointer(d, schemaPointer), "properties", countField).type = ["integer", "string"];
    });
    expect(createSpecValidator(loose).validateSchema(schemaPointer, body)).toEqual([]);
  });
});
