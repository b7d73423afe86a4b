// The record of what the platform's published descriptions state beyond the seed
// (platform-facts.yaml): its shape, that it names only operations of this description, that every
// fact says where it was read, and that a fact said to fill a gap of the seed contradicts nothing
// the description states (the description is the seed; where the two disagree the seed wins and
// the spec README lists it). The platform's operations outside the description (`extensions`) are
// at paths none of the description's, and say nothing the description states otherwise of the
// resource they read.
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import {
  createSpecAjv,
  type FieldFact,
  matchOperation,
  type OperationModel,
  operationById,
  type PlatformExtension,
  type PlatformFact,
  platformExtension,
  platformExtensions,
  platformFacts,
  platformFactsPath,
  platformFactsSchemaPath,
  readPlatformFacts,
  resolvePointer,
} from "../lib/index.js";
import { isObject, type Json, loadBundle, loadModel, type Schema, schemaOf } from "./bundle.js";

const doc = loadBundle(undefined, { seed: true });
const model = loadModel(undefined, { seed: true });
const facts = platformFacts();
const entries = Object.entries(facts.operations).flatMap(([operationId, list]) =>
  list.map((fact) => ({ operationId, fact })),
);
const extensions = platformExtensions();
const rawText = readFileSync(platformFactsPath, "utf8");
// Parsed once: the record is large, and YAML parsing it takes a good part of a second.
const record = parse(rawText) as Json;
const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");

const types = (schema: Schema | Json): string[] | undefined => {
  const type = schema.type;
  if (type === undefined) return undefined;
  return (Array.isArray(type) ? type.map(String) : [String(type)]).sort();
};

/**
 * Where the record's schema says something the description's schema does not allow or states
 * otherwise: another type, another default or maximum, an enumeration without some of the
 * description's values. What the description leaves open (no type, no enum) the record may fill.
 */
function schemaConflicts(spec: Schema, record: Json, where: string): string[] {
  const found: string[] = [];
  const specTypes = types(spec);
  const recordTypes = types(record);
  if (specTypes && recordTypes && specTypes.join("|") !== recordTypes.join("|"))
    found.push(`${where}: type ${recordTypes.join("|")} where the description has ${specTypes.join("|")}`);
  if (spec.enum && Array.isArray(record.enum)) {
    const recordValues = record.enum as unknown[];
    const dropped = spec.enum.filter((value) => !recordValues.includes(value));
    if (dropped.length > 0) found.push(`${where}: enum without ${dropped.map(String).join(", ")}`);
  }
  for (const keyword of ["default", "maximum"] as const)
    if (spec[keyword] !== undefined && record[keyword] !== undefined && spec[keyword] !== record[keyword])
      found.push(
        `${where}: ${keyword} ${String(record[keyword])} where the description has ${String(spec[keyword])}`,
      );
  const specItems = schemaOf(doc, spec.items);
  if (specItems && isObject(record.items))
    found.push(...schemaConflicts(specItems, record.items, `${where}[]`));
  return found;
}

/** The description's schema of a field fact's body, walked along the fact's field path. */
function specFieldSchema(op: OperationModel, fact: FieldFact): Schema | undefined {
  const media =
    fact.at === "request"
      ? op.requestBody?.content[0]
      : op.responses.find((response) => response.status === fact.status)?.content[0];
  let schema = media?.schemaPointer ? schemaOf(doc, resolvePointer(doc, media.schemaPointer)) : undefined;
  for (const segment of fact.field.split(".")) {
    const name = segment.replace(/\[\]$/, "");
    const properties = schema?.properties;
    schema = properties && Object.hasOwn(properties, name) ? schemaOf(doc, properties[name]) : undefined;
    if (segment.endsWith("[]")) schema = schemaOf(doc, schema?.items);
    if (!schema) return undefined;
  }
  return schema;
}

/** Everything a fact states that the description states otherwise (empty: no conflict). */
function conflicts(operationId: string, fact: PlatformFact): { checked: boolean; found: string[] } {
  const op = operationById(model, operationId);
  if (fact.kind === "parameter") {
    const param = op.parameters.find((p) => p.name === fact.name);
    if (!param) return { checked: false, found: [] };
    const found =
      param.in === fact.in ? [] : [`${fact.name}: in ${fact.in} where the description has ${param.in}`];
    const spec = schemaOf(doc, resolvePointer(doc, param.schemaPointer)) ?? {};
    // A repeatable parameter's single value is what the description describes.
    const value = fact.repeatable && isObject(fact.schema.items) ? fact.schema.items : fact.schema;
    return { checked: true, found: [...found, ...schemaConflicts(spec, value, fact.name)] };
  }
  if (fact.kind === "field") {
    const spec = specFieldSchema(op, fact);
    if (!spec) return { checked: false, found: [] };
    return { checked: true, found: schemaConflicts(spec, fact.schema, fact.field) };
  }
  const response = op.responses.find((r) => r.status === fact.status);
  const pointer = response?.content[0]?.schemaPointer;
  const spec = pointer ? schemaOf(doc, resolvePointer(doc, pointer)) : undefined;
  if (!spec || !fact.schema) return { checked: response !== undefined, found: [] };
  return { checked: true, found: schemaConflicts(spec, fact.schema, `status ${fact.status}`) };
}

/** The description's operations whose path takes the extension's path (any method); none: empty. */
const describedAt = (extension: Pick<PlatformExtension, "path">): string[] =>
  ["get", "put", "post", "delete", "patch"].flatMap((method) => {
    const match = matchOperation(model, method, extension.path);
    return match ? [match.operation.operationId] : [];
  });

/**
 * What an extension's answer says otherwise than the description says of the same resource: the
 * description's operation that creates it (a POST at the extension's path less its last segment)
 * types its fields in the request body; a field of the same name must agree.
 */
function extensionConflicts(extension: PlatformExtension): { creator?: string; found: string[] } {
  const collection = extension.path.split("/").slice(0, -1).join("/");
  const creator = model.operations.find((op) => op.method === "post" && op.path === collection);
  const media = creator?.requestBody?.content[0];
  const body = media?.schemaPointer ? schemaOf(doc, resolvePointer(doc, media.schemaPointer)) : undefined;
  if (!creator || !body?.properties) return { found: [] };
  const properties = body.properties;
  const found = extension.fields
    .filter((f) => Object.hasOwn(properties, f.field))
    .flatMap((f) => {
      const spec = schemaOf(doc, properties[f.field]);
      return spec ? schemaConflicts(spec, f.schema, `${extension.id} ${f.field}`) : [];
    });
  return { creator: creator.operationId, found };
}

/**
 * The record cut to its sources, its first fact and its first extension, with `change` made to
 * them, as the loader reads it (text). The loader checks the whole record against the schema; the
 * whole record would only make each refusal cost a parse of all its facts.
 */
function excerpt(change: (parts: { fact: Json; extension: Json }) => void): string {
  const [first] = entries;
  if (!first) throw new Error("The record holds no fact.");
  const copy = structuredClone(record);
  const fact = ((copy.operations as Json)[first.operationId] as Json[])[0] as Json;
  const extension = (copy.extensions as Json[] | undefined)?.[0];
  if (!extension) throw new Error("The record holds no extension.");
  change({ fact, extension });
  return JSON.stringify({ ...copy, operations: { [first.operationId]: [fact] }, extensions: [extension] });
}

describe("platform-facts.yaml", () => {
  it("validates against platform-facts.schema.json with the project's Ajv set-up", () => {
    const validate = createSpecAjv(undefined).compile(
      JSON.parse(readFileSync(platformFactsSchemaPath, "utf8")),
    );
    const valid = validate(structuredClone(record));
    expect(validate.errors ?? []).toEqual([]);
    expect(valid).toBe(true);
  });

  it("is taken by the loader as the record's first fact and extension alone", () => {
    // What the refusals below break: this much of the record, valid as it is, so that each
    // refusal is the break's doing.
    expect(() => readPlatformFacts(excerpt(() => {}))).not.toThrow();
  });

  it("is refused by the loader when a fact breaks the schema", () => {
    expect(() =>
      readPlatformFacts(excerpt(({ fact }) => Object.assign(fact.source as Json, { commit: "5b66630" }))),
    ).toThrow(/commit/);
    expect(() =>
      readPlatformFacts(
        excerpt(({ fact }) => {
          fact.seed = "disagrees";
          delete fact.seedSays;
        }),
      ),
    ).toThrow(/seedSays/);
    expect(() =>
      readPlatformFacts(excerpt(({ fact }) => Object.assign(fact, { description: "x" }))),
    ).toThrow();
  });

  it("names only operations of this description", () => {
    const ours = new Set(model.operations.map((op) => op.operationId));
    const unknown = Object.keys(facts.operations).filter((id) => !ours.has(id));
    expect(unknown).toEqual([]);
    for (const id of Object.keys(facts.operations)) expect(operationById(model, id).operationId).toBe(id);
  });

  it("gives every fact a unique id and a source at a full commit that the record's sources list", () => {
    const ids = [...entries.map(({ fact }) => fact.id), ...extensions.map((e) => e.id)];
    expect(new Set(ids).size).toBe(ids.length);
    const sourced = [
      ...entries.map(({ fact }) => fact),
      ...extensions.map((e) => ({
        ...e,
        confirmedBy: [...(e.fieldsSource ? [e.fieldsSource] : []), ...(e.confirmedBy ?? [])],
      })),
    ];
    for (const fact of sourced)
      for (const source of [fact.source, ...(fact.confirmedBy ?? [])]) {
        expect(source.commit, fact.id).toMatch(/^[0-9a-f]{40}$/);
        const listed = facts.sources.find(
          (s) => s.repository === source.repository && s.commit === source.commit,
        );
        expect(listed?.paths, `${fact.id}: ${source.repository}@${source.commit}`).toContain(source.path);
        expect(
          source.pointer !== undefined || source.line !== undefined,
          `${fact.id}: where in the file`,
        ).toBe(true);
      }
  });

  it("lists the volume read that the SDK's create_and_poll ends with as an extension", () => {
    const read = platformExtension("volume-get");
    const createVolume = operationById(model, "createVolume");
    // The read is of what createVolume's task names: the collection it posts to, then the id.
    expect(read.method).toBe("get");
    expect(read.path.startsWith(`${createVolume.path}/{`)).toBe(true);
    expect(read.path.split("/")).toContain(createVolume.asyncTask?.createdResourcesKey);
    expect(read.statuses).toContain("200");
    expect(read.fields.filter((f) => f.required).map((f) => f.field)).toEqual(
      expect.arrayContaining(["id", "name", "size", "status"]),
    );
    expect(() => platformExtension("no-such-extension")).toThrow(/volume-get/);
  });

  it("puts every extension at a path none of the description's, with its path parameters listed", () => {
    expect(extensions.length).toBeGreaterThan(0);
    for (const extension of extensions) {
      expect(describedAt(extension), extension.id).toEqual([]);
      const inPath = [...extension.path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);
      const listed = (extension.parameters ?? []).filter((p) => p.in === "path");
      expect(
        listed.map((p) => p.name),
        extension.id,
      ).toEqual(inPath);
      expect(listed.every((p) => p.required)).toBe(true);
    }
    // The check can fail: the description's own task read is described.
    const getTask = operationById(model, "getTask");
    expect(describedAt({ path: getTask.path })).toEqual([getTask.operationId]);
  });

  it("gives an extension's fields statuses it documents, each field once, arrays before their items", () => {
    for (const extension of extensions) {
      const keys = extension.fields.map((f) => `${f.status} ${f.field}`);
      expect(new Set(keys).size, extension.id).toBe(keys.length);
      for (const field of extension.fields) {
        expect(extension.statuses, `${extension.id} ${field.field}`).toContain(field.status);
        const parent = field.field.lastIndexOf("[].");
        if (parent === -1) continue;
        const array = extension.fields.find(
          (f) => f.status === field.status && f.field === field.field.slice(0, parent),
        );
        expect(types(array?.schema ?? {}), `${extension.id} ${field.field}`).toContain("array");
      }
    }
  });

  it("says nothing in an extension's answer that the description states otherwise (the check can fail)", () => {
    const found = extensions.flatMap((e) => extensionConflicts(e).found);
    expect(found).toEqual([]);
    const read = platformExtension("volume-get");
    expect(extensionConflicts(read).creator).toBe("createVolume");
    const sizeAsText: PlatformExtension = {
      ...read,
      fields: read.fields.map((f) => (f.field === "size" ? { ...f, schema: { type: "string" } } : f)),
    };
    expect(extensionConflicts(sizeAsText).found).toEqual([expect.stringContaining("size")]);
  });

  it("refuses an extension that breaks the schema", () => {
    expect(() => readPlatformFacts(excerpt(({ extension }) => delete extension.path))).toThrow(/path/);
    expect(() =>
      readPlatformFacts(excerpt(({ extension }) => Object.assign(extension, { statuses: ["2XX"] }))),
    ).toThrow(/statuses/);
    expect(() =>
      readPlatformFacts(excerpt(({ extension }) => Object.assign(extension, { description: "x" }))),
    ).toThrow();
  });

  it("finds a conflict where a fact contradicts the description (the check can fail)", () => {
    const regions = operationById(model, "listRegions");
    const limit = regions.parameters.find((p) => p.name === "limit");
    if (typeof limit?.default !== "number") throw new Error("listRegions has no numeric limit default.");
    const source = entries[0]?.fact.source;
    if (!source) throw new Error("The record holds no fact.");
    const otherDefault: PlatformFact = {
      id: "probe",
      kind: "parameter",
      name: "limit",
      in: "query",
      schema: { type: "integer", default: limit.default + 1 },
      seed: "silent",
      source,
    };
    expect(conflicts("listRegions", otherDefault).found).toHaveLength(1);

    const tasks = operationById(model, "listTasks");
    const state = tasks.parameters.find((p) => p.name === "state");
    if (!state?.enum || state.enum.length < 2) throw new Error("listTasks has no state enum.");
    const fewerStates: PlatformFact = {
      ...otherDefault,
      name: "state",
      repeatable: true,
      schema: { type: "array", items: { type: "string", enum: state.enum.slice(1) } },
    };
    expect(conflicts("listTasks", fewerStates).found.join()).toContain(String(state.enum[0]));

    const nullableId: PlatformFact = {
      id: "probe",
      kind: "field",
      at: "response",
      status: "200",
      field: "id",
      schema: { type: ["string", "null"] },
      seed: "silent",
      source,
    };
    expect(conflicts("getTask", nullableId).found).toHaveLength(1);
  });

  it("marks seed: silent only facts that contradict nothing the description states", () => {
    const found = entries
      .filter(({ fact }) => fact.seed === "silent")
      .flatMap(({ operationId, fact }) => conflicts(operationId, fact).found.map((c) => `${fact.id}: ${c}`));
    expect(found).toEqual([]);
  });

  it("marks seed: disagrees only where the description, where it states the point, states otherwise", () => {
    const disagreements = entries.filter(({ fact }) => fact.seed === "disagrees");
    const checked = disagreements.map(({ operationId, fact }) => ({
      id: fact.id,
      ...conflicts(operationId, fact),
    }));
    const agreeing = checked.filter((c) => c.checked && c.found.length === 0).map((c) => c.id);
    expect(agreeing).toEqual([]);
    expect(checked.some((c) => c.checked)).toBe(true);
  });

  it("has every disagreement, and nothing else, in the spec README's table, and every extension in its own", () => {
    const section = readme
      .split(/^## /m)
      .find((s) => s.startsWith("What the platform documents beyond the seed"));
    if (!section)
      throw new Error('spec/README.md has no section "What the platform documents beyond the seed".');
    const listed = [...section.matchAll(/^\|\s*`([a-z0-9-]+)`\s*\|/gm)].map((m) => m[1]);
    const disagreements = entries.filter(({ fact }) => fact.seed === "disagrees").map(({ fact }) => fact.id);
    expect([...listed].sort()).toEqual([...disagreements].sort());
    // Each extension by its method, path and id, in a table of its own.
    for (const extension of extensions)
      expect(section).toMatch(
        new RegExp(
          `^\\| \`${extension.method.toUpperCase()} ${extension.path.replace(/[{}]/g, "\\$&")}\` +\\| \`${extension.id}\``,
          "m",
        ),
      );
  });
});
