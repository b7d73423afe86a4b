// The merged bundle: the seed's description (what `redocly bundle` writes to dist/) with the
// platform's published facts (platform-facts.yaml) entered where the seed is silent, each node a fact
// adds or amends citing its source in `x-platform-source`. Where the seed speaks it wins: a fact the
// record marks `seed: disagrees` is not entered, and a silent fact that would change what the seed
// states stops the bundle (the record, not the description, is wrong then).
//
// `pnpm bundle` runs this after Redocly: each dist/<name>.json is kept as dist/seed/<name>.json (the
// seed's word only, for governance users) and replaced by its merge. Plain JavaScript on purpose:
// it runs before src/ is compiled (turbo's build depends on the bundle).
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const specDir = fileURLToPath(new URL("..", import.meta.url));
export const FACTS_PATH = join(specDir, "platform-facts.yaml");
export const FACTS_SCHEMA_PATH = join(specDir, "platform-facts.schema.json");
/** Bundles Redocly writes; each is merged. */
export const MERGED_BUNDLES = ["openapi", "cloud", "iam", "streaming", "security", "storage"];

/** What a node the platform's documents add or amend says of where that was read. */
export const SOURCE_KEY = "x-platform-source";
/** On an object schema: the names in `required` only the platform's documents state. */
export const PLATFORM_REQUIRED_KEY = "x-platform-required";
/** On the root: the record's commits, so a reader of the bundle knows what was merged. */
export const MERGED_FROM_KEY = "x-platform-facts";

const METHODS = ["get", "put", "post", "delete", "patch", "head", "options"];

/** Reads and checks platform-facts.yaml against its JSON Schema; throws naming every problem. */
export function readFacts(text = readFileSync(FACTS_PATH, "utf8")) {
  const { parse } = require("yaml");
  const Ajv2020 = require("ajv/dist/2020").default;
  const addFormats = require("ajv-formats");
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validate = ajv.compile(JSON.parse(readFileSync(FACTS_SCHEMA_PATH, "utf8")));
  const data = parse(text);
  if (!validate(data)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || "/"} ${e.message}`);
    throw new Error(`The platform facts break ${FACTS_SCHEMA_PATH}:\n${problems.join("\n")}`);
  }
  return data;
}

/**
 * The merged description: a copy of `seed` (a bundled description, every $ref internal) with each
 * silent fact of `facts` entered. Operations the bundle does not hold (a product's bundle) are
 * passed over; an operation of the record that no bundle holds is the whole bundle's error.
 */
export function mergePlatformFacts(seed, facts, { requireAllOperations = true } = {}) {
  const doc = structuredClone(seed);
  const operations = operationsById(doc);
  for (const [operationId, list] of Object.entries(facts.operations)) {
    const found = operations.get(operationId);
    if (!found) {
      if (requireAllOperations)
        throw new Error(`platform-facts.yaml: operation ${operationId} is not in the description.`);
      continue;
    }
    for (const fact of list) {
      if (fact.seed !== "silent") continue;
      const where = `platform-facts.yaml ${operationId} ${fact.id}`;
      if (fact.kind === "parameter") enterParameter(doc, found.operation, fact, where);
      else if (fact.kind === "field") enterField(doc, found.operation, fact, where);
      else enterStatus(found.operation, fact);
      for (const sentence of fact.fills ?? []) fill(doc, found.operation, sentence, fact, where);
      if (fact.kind === "field") fillExamples(doc, found.operation, fact, where);
    }
  }
  doc[MERGED_FROM_KEY] = {
    record: "spec/platform-facts.yaml",
    sources: facts.sources.map(({ repository, commit }) => ({ repository, commit })),
  };
  return doc;
}

function operationsById(doc) {
  const byId = new Map();
  for (const [path, item] of Object.entries(doc.paths ?? {}))
    for (const method of METHODS) {
      const operation = item?.[method];
      if (operation?.operationId) byId.set(operation.operationId, { path, method, operation });
    }
  return byId;
}

function citation(fact) {
  const { repository, path, commit, pointer, line } = fact.source;
  return {
    fact: fact.id,
    repository,
    path,
    commit,
    ...(pointer !== undefined ? { pointer } : {}),
    ...(line !== undefined ? { line } : {}),
  };
}

function cite(node, fact) {
  const list = node[SOURCE_KEY] ?? [];
  if (!list.some((c) => c.fact === fact.id)) list.push(citation(fact));
  node[SOURCE_KEY] = list;
}

/** The node a local $ref names (the bundle's refs are all `#/…`). */
function deref(doc, node, where) {
  let current = node;
  for (let hops = 0; current && typeof current.$ref === "string"; hops++) {
    if (hops > 32 || !current.$ref.startsWith("#/"))
      throw new Error(`${where}: cannot follow ${current.$ref}`);
    current = current.$ref
      .slice(2)
      .split("/")
      .map((s) => s.replaceAll("~1", "/").replaceAll("~0", "~"))
      .reduce((at, key) => at?.[key], doc);
  }
  if (!current) throw new Error(`${where}: ${node.$ref} names nothing`);
  return current;
}

// Keywords a fact may add to a node the seed already has. A keyword the seed states with another
// value is a disagreement the record failed to mark.
function amend(target, schema, where) {
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" || key === "items") continue;
    if (!(key in target)) {
      target[key] = structuredClone(value);
      continue;
    }
    if (JSON.stringify(target[key]) === JSON.stringify(value)) continue;
    if (key === "enum" && sameMembers(target[key], value)) continue;
    // A type list that only adds null, or the seed's single type inside the platform's list, narrows
    // nothing the seed states: the seed's stays (the seed wins on what it states).
    if (key === "type" && [value].flat().includes(target[key])) continue;
    throw new Error(
      `${where}: the description states ${key} ${JSON.stringify(target[key])}, the fact ${JSON.stringify(value)}; mark the fact seed: disagrees.`,
    );
  }
}

function sameMembers(a, b) {
  const key = (v) => JSON.stringify(v);
  return a.length === b.length && a.every((v) => b.some((w) => key(w) === key(v)));
}

function enterParameter(doc, operation, fact, where) {
  operation.parameters ??= [];
  const index = operation.parameters.findIndex((p) => {
    const resolved = deref(doc, p, where);
    return resolved.name === fact.name && resolved.in === fact.in;
  });
  let parameter;
  if (index === -1) {
    parameter = {
      name: fact.name,
      in: fact.in,
      required: false,
      schema: structuredClone(fact.schema),
    };
    // Only our own note: the platform's text is never copied, and the citation says the rest.
    if (fact.note) parameter.description = fact.note;
    if (fact.deprecated) parameter.deprecated = true;
    operation.parameters.push(parameter);
  } else {
    // A shared parameter (`#/components/parameters/…`) is copied into this operation: the fact is
    // about this operation only.
    parameter = structuredClone(deref(doc, operation.parameters[index], where));
    operation.parameters[index] = parameter;
    const schema = deref(doc, parameter.schema ?? {}, where);
    if (fact.repeatable && fact.schema.type === "array" && schema.type !== "array") {
      // The seed describes one value; the platform repeats the key. Both stay valid.
      amend(structuredClone(schema), fact.schema.items ?? {}, where);
      parameter.schema = { anyOf: [parameter.schema, { type: "array", items: parameter.schema }] };
    } else {
      // Keywords beside a shared schema's $ref would amend every user of it: wrap it instead.
      const own = structuredClone(parameter.schema ?? {});
      parameter.schema = own.$ref ? { allOf: [own] } : own;
      amend(parameter.schema, fact.schema, where);
    }
  }
  if (fact.repeatable) {
    parameter.style = "form";
    parameter.explode = true;
  }
  cite(parameter, fact);
}

/** Splits `a.b[].c` into steps: a property name and whether its items are meant. */
function steps(field) {
  return field.split(".").map((part) => ({ name: part.replace(/\[\]$/, ""), items: part.endsWith("[]") }));
}

function bodySchema(doc, operation, fact, where) {
  const holder =
    fact.at === "request"
      ? deref(doc, operation.requestBody ?? {}, where)
      : deref(doc, operation.responses?.[fact.status] ?? {}, where);
  const media = holder.content?.["application/json"];
  if (!media?.schema)
    throw new Error(
      `${where}: the ${fact.at === "request" ? "request" : `${fact.status} answer`} has no JSON schema.`,
    );
  return media.schema;
}

function enterField(doc, operation, fact, where) {
  let schema = deref(doc, bodySchema(doc, operation, fact, where), where);
  const path = steps(fact.field);
  for (const [i, step] of path.entries()) {
    const last = i === path.length - 1;
    schema.properties ??= {};
    let property = schema.properties[step.name];
    if (last) {
      if (!property) {
        property = schema.properties[step.name] = structuredClone(fact.schema);
      } else {
        const target = deref(doc, property, where);
        amend(target, withoutChildren(fact.schema), where);
        if (fact.schema.items && !step.items) amendItems(doc, target, fact.schema.items, where);
        if (fact.schema.properties) amendProperties(doc, target, fact.schema.properties, where);
        property = target;
      }
      if (step.items) throw new Error(`${where}: a field path ends at a property, not its items.`);
      cite(property, fact);
      require_(schema, step.name, fact);
      return;
    }
    if (!property) {
      // A parent the seed does not show: the platform's documents imply it by the nested field.
      property = schema.properties[step.name] = step.items
        ? { type: "array", items: { type: "object" } }
        : { type: "object" };
      cite(property, fact);
    }
    schema = deref(doc, property, where);
    if (step.items) {
      if (!schema.items) throw new Error(`${where}: ${step.name} has no items in the description.`);
      schema = deref(doc, schema.items, where);
    }
  }
}

function withoutChildren({ items, properties, ...rest }) {
  return rest;
}

function amendItems(doc, target, items, where) {
  if (!target.items) target.items = structuredClone(items);
  else amend(deref(doc, target.items, where), withoutChildren(items), where);
}

function amendProperties(doc, target, properties, where) {
  target.properties ??= {};
  for (const [name, schema] of Object.entries(properties)) {
    if (!target.properties[name]) target.properties[name] = structuredClone(schema);
    else amend(deref(doc, target.properties[name], where), withoutChildren(schema), where);
  }
}

function require_(holder, name, fact) {
  if (fact.required) {
    holder.required ??= [];
    const inferred = holder["x-inferred-required"] ?? [];
    const statedBySeed = holder.required.includes(name) && !inferred.includes(name);
    if (!statedBySeed) {
      if (!holder.required.includes(name)) holder.required.push(name);
      // The platform states what the seed only inferred: no longer an inference.
      if (inferred.includes(name)) {
        holder["x-inferred-required"] = inferred.filter((n) => n !== name);
        if (holder["x-inferred-required"].length === 0) delete holder["x-inferred-required"];
      }
      holder[PLATFORM_REQUIRED_KEY] = [...new Set([...(holder[PLATFORM_REQUIRED_KEY] ?? []), name])];
    }
  }
  if (fact.requiredWhen) {
    const [sibling, values] = Object.entries(fact.requiredWhen)[0];
    holder.allOf ??= [];
    holder.allOf.push({
      if: { properties: { [sibling]: { enum: [...values] } }, required: [sibling] },
      // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then, never awaited.
      then: { required: [name] },
      [SOURCE_KEY]: [citation(fact)],
    });
  }
}

function enterStatus(operation, fact) {
  operation.responses ??= {};
  if (operation.responses[fact.status]) {
    cite(operation.responses[fact.status], fact);
    return;
  }
  const response = {
    description:
      fact.note ?? "Documented by the platform's published description; the seed does not show this status.",
  };
  if (fact.schema && Object.keys(fact.schema).length > 0)
    response.content = {
      "application/json": {
        schema: structuredClone(fact.schema),
        // Made from the schema, as every answer the description documents has an example.
        examples: { platform: { summary: "Shape the platform documents", value: plausible(fact.schema) } },
      },
    };
  cite(response, fact);
  operation.responses[fact.status] = response;
}

/**
 * Takes out of `x-unspecified` the sentence a fact fills: in the merged bundle that list says what
 * neither source states. Looked for in the operation and every schema it reaches.
 */
function fill(doc, operation, sentence, fact, where) {
  let found = false;
  const seen = new Set();
  const visit = (node) => {
    if (!node || typeof node !== "object" || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === "string" && node.$ref.startsWith("#/")) visit(deref(doc, node, where));
    const list = node["x-unspecified"];
    if (Array.isArray(list) && list.includes(sentence)) {
      found = true;
      node["x-unspecified"] = list.filter((s) => s !== sentence);
      if (node["x-unspecified"].length === 0) delete node["x-unspecified"];
      cite(node, fact);
    }
    for (const [key, child] of Object.entries(node)) if (key !== SOURCE_KEY) visit(child);
  };
  visit(operation);
  if (!found) throw new Error(`${where}: fills "${sentence}", which no x-unspecified of the operation says.`);
}

/**
 * A value for a schema, for examples that lack a field the platform requires: the fact's own
 * `examples` first (chosen by us, never copied), then what the schema itself fixes.
 */
export function plausible(schema) {
  if (schema.examples?.length) return structuredClone(schema.examples[0]);
  if ("const" in schema) return schema.const;
  if ("default" in schema && schema.default !== null) return structuredClone(schema.default);
  if (schema.enum?.length) return schema.enum.find((v) => v !== null) ?? null;
  const type = [schema.type].flat().find((t) => t && t !== "null");
  switch (type) {
    case "boolean":
      return false;
    case "integer":
    case "number":
      return schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
    case "array":
      return [];
    case "object":
      return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, v]) => [k, plausible(v)]));
    case "string":
      if (schema.format === "date-time") return "2025-01-01T00:00:00Z";
      if (schema.format === "uuid") return "00000000-0000-4000-8000-000000000000";
      if (schema.pattern)
        throw new Error(`no example for a string of pattern ${schema.pattern}: give the fact examples`);
      return "string";
    default:
      return null;
  }
}

/** Adds the field to each example of the body that holds the field's parent and lacks it. */
function fillExamples(doc, operation, fact, where) {
  if (!fact.required && !fact.requiredWhen) return;
  const holder =
    fact.at === "request"
      ? deref(doc, operation.requestBody ?? {}, where)
      : deref(doc, operation.responses?.[fact.status] ?? {}, where);
  const media = holder.content?.["application/json"];
  const values = [];
  if (media?.example !== undefined) values.push(media.example);
  for (const example of Object.values(media?.examples ?? {})) {
    const value = deref(doc, example, where).value;
    if (value !== undefined) values.push(value);
  }
  const path = steps(fact.field);
  const walk = (value, i) => {
    if (!value || typeof value !== "object" || Array.isArray(value)) return;
    const step = path[i];
    if (i === path.length - 1) {
      if (step.name in value) return;
      if (fact.requiredWhen) {
        const [sibling, allowed] = Object.entries(fact.requiredWhen)[0];
        if (!allowed.includes(value[sibling])) return;
      }
      value[step.name] = plausible(fact.schema);
      return;
    }
    const next = value[step.name];
    if (step.items) for (const item of Array.isArray(next) ? next : []) walk(item, i + 1);
    else walk(next, i + 1);
  };
  for (const value of values)
    for (const item of Array.isArray(value) && path[0].name === "" ? value : [value]) walk(item, 0);
}

/**
 * Merges every bundle of dist/ (or those named: a program that bundled only some) in place, keeping
 * the seed's own in dist/seed/.
 */
export function mergeDist(distDir = join(specDir, "dist"), facts = readFacts(), names = MERGED_BUNDLES) {
  const seedDir = join(distDir, "seed");
  mkdirSync(seedDir, { recursive: true });
  const written = [];
  for (const name of names) {
    const file = join(distDir, `${name}.json`);
    if (!existsSync(file)) throw new Error(`${file} does not exist: run redocly bundle first.`);
    const seed = JSON.parse(readFileSync(file, "utf8"));
    if (seed[MERGED_FROM_KEY]) throw new Error(`${file} is already merged: bundle again from the source.`);
    const merged = mergePlatformFacts(seed, facts, { requireAllOperations: name === "openapi" });
    writeFileSync(join(seedDir, `${name}.json`), `${JSON.stringify(seed, null, 2)}\n`);
    const tmp = `${file}.tmp`;
    writeFileSync(tmp, `${JSON.stringify(merged, null, 2)}\n`);
    renameSync(tmp, file);
    written.push(name);
  }
  // The YAML bundle follows the JSON one.
  const { stringify } = require("yaml");
  const yamlFile = join(distDir, "openapi.yaml");
  if (existsSync(yamlFile)) {
    renameSync(yamlFile, join(seedDir, "openapi.yaml"));
    writeFileSync(yamlFile, stringify(JSON.parse(readFileSync(join(distDir, "openapi.json"), "utf8"))));
  }
  return written;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const written = mergeDist();
  console.log(
    `merged the platform's facts into dist/{${written.join(",")}}.json; the seed's own: dist/seed/`,
  );
}
