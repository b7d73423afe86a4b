// Code samples for every operation, generated from the description (never written per
// operation): curl, and TypeScript with @platform-api/client. They go into `x-codeSamples`,
// which Redoc shows beside each operation.
import { buildModel, resolvePointer } from "@platform-api/spec";
import {
  exampleValue,
  isObject,
  type Json,
  listOperations,
  type Operation,
  tokenHeader,
} from "./operations.js";

export interface CodeSample {
  lang: "Shell" | "TypeScript";
  label: string;
  source: string;
}

/** Tokens contain a `$`, so the samples always carry them inside single quotes. */
export const EXAMPLE_TOKEN = "12345$0123456789abcdef";
export const EXAMPLE_RESELLER_TOKEN = "500$0123456789abcdef";

/** The address the samples call: the description's default server. */
export const baseUrl = (doc: Json): string => buildModel(doc).conventions.defaultBaseUrl;

export function codeSamplesFor(doc: Json, op: Operation): CodeSample[] {
  return [
    { lang: "Shell", label: "curl", source: curlSample(doc, op) },
    { lang: "TypeScript", label: "TypeScript", source: typescriptSample(doc, op) },
  ];
}

/** A copy of the description whose every operation carries its generated samples. */
export function withCodeSamples(doc: Json): Json {
  const copy = structuredClone(doc);
  for (const op of listOperations(copy)) op.node["x-codeSamples"] = codeSamplesFor(copy, op);
  return copy;
}

/** Quotes a word for a POSIX shell: single quotes, with any single quote closed and escaped. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

function pathParams(doc: Json, op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of op.parameters) if (p.in === "path") out[p.name] = exampleValue(doc, p);
  return out;
}

function requiredQuery(doc: Json, op: Operation): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const p of op.parameters) if (p.in === "query" && p.required) out[p.name] = exampleValue(doc, p);
  return out;
}

function concreteUrl(doc: Json, op: Operation): string {
  const params = pathParams(doc, op);
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(params[name] ?? name)),
  );
  const query = new URLSearchParams(
    Object.entries(requiredQuery(doc, op)).map(([k, v]) => [k, String(v)] as [string, string]),
  ).toString();
  return `${baseUrl(doc)}${path}${query ? `?${query}` : ""}`;
}

export function curlSample(doc: Json, op: Operation): string {
  const token = op.reseller ? EXAMPLE_RESELLER_TOKEN : EXAMPLE_TOKEN;
  const lines = [
    op.reseller
      ? "# The reseller admin-portal token; single quotes keep the shell off its `$`."
      : "# Single quotes keep the shell from expanding the `$` inside the token.",
    `curl${op.method === "get" ? "" : ` -X ${op.method.toUpperCase()}`} ${shellQuote(concreteUrl(doc, op))}`,
    `  -H ${shellQuote(`${tokenHeader(doc, op)}: APIKey ${token}`)}`,
  ];
  if (op.hasBody) {
    lines.push(`  -H 'Content-Type: application/json'`);
    lines.push(`  --data ${shellQuote(JSON.stringify(op.bodyExample ?? {}, null, 2))}`);
  }
  return lines.map((line, i) => (i > 0 && i < lines.length - 1 ? `${line} \\` : line)).join("\n");
}

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** A TypeScript object literal for a JSON value, indented to sit at `indent`. */
export function tsLiteral(value: unknown, indent = ""): string {
  if (value === null || typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${tsLiteral(v, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const body = entries
    .map(([k, v]) => `${inner}${IDENTIFIER.test(k) ? k : JSON.stringify(k)}: ${tsLiteral(v, inner)},`)
    .join("\n");
  return `{\n${body}\n${indent}}`;
}

/** `{ params: { path: {...}, query: {...} }, body: {...} }`, or "" when the call needs none. */
function initLiteral(doc: Json, op: Operation, indent: string): string {
  const params: Record<string, unknown> = {};
  const path = pathParams(doc, op);
  const query = requiredQuery(doc, op);
  if (Object.keys(path).length > 0) params.path = path;
  if (Object.keys(query).length > 0) params.query = query;
  const init: Record<string, unknown> = {};
  if (Object.keys(params).length > 0) init.params = params;
  if (op.hasBody) init.body = op.bodyExample ?? {};
  return Object.keys(init).length > 0 ? tsLiteral(init, indent) : "";
}

/** Name of one item of a list, from the schema of its items ("Region" -> "region"). */
function itemName(doc: Json, op: Operation, itemsField: string): string {
  const ok = op.responses.find((r) => r.status === "200");
  const schemaPointer = ok?.content.find((m) => m.contentType === "application/json")?.schemaPointer;
  const schema = schemaPointer ? resolvePointer<Json>(doc, schemaPointer) : undefined;
  const properties = isObject(schema?.properties) ? schema.properties : {};
  const list = properties[itemsField];
  const items = isObject(list) ? list.items : undefined;
  const ref = isObject(items) && typeof items.$ref === "string" ? items.$ref.split("/").pop() : undefined;
  return ref ? ref[0]?.toLowerCase() + ref.slice(1) : "item";
}

export function typescriptSample(doc: Json, op: Operation): string {
  const method = op.method.toUpperCase();
  const lines = [
    `import { createClient } from "@platform-api/client";`,
    "",
    op.reseller
      ? "// Reads GCORE_RESELLER_API_KEY (the reseller admin-portal token) and GCORE_BASE_URL."
      : "// Reads GCORE_API_KEY and GCORE_BASE_URL from the environment.",
    "const client = createClient();",
    "",
  ];
  const { pagination, asyncTask } = op;
  const init = initLiteral(doc, op, "");
  const args = `${JSON.stringify(op.path)}${init ? `, ${init}` : ""}`;

  if (pagination) {
    const name = itemName(doc, op, pagination.itemsField);
    lines.push(
      pagination.style === "page"
        ? `// Every item, page after page: follows \`${pagination.nextField}\` until it is null.`
        : `// Every item, page after page: \`${pagination.offsetParam}\` grows by \`${pagination.limitParam}\` until it reaches \`${pagination.countField}\`.`,
      `for await (const ${name} of client.paginate(${args})) {`,
      `  console.log(${name});`,
      "}",
    );
  } else if (asyncTask) {
    const key = asyncTask.createdResourcesKey;
    lines.push(
      `const { data, error, response } = await client.${method}(${args});`,
      "if (data === undefined) throw new Error(`HTTP ${response.status}: ${JSON.stringify(error)}`);",
      "",
      "// The call only starts the work: wait for its task, polled at the spec's interval for its type.",
      `const [task] = await client.waitForTasks(data.${asyncTask.tasksField});`,
      key ? `console.log(task?.created_resources.${key});` : "console.log(task?.created_resources);",
    );
  } else if (op.answersJson) {
    lines.push(
      `const { data, error, response } = await client.${method}(${args});`,
      "if (data === undefined) throw new Error(`HTTP ${response.status}: ${JSON.stringify(error)}`);",
      "console.log(data);",
    );
  } else {
    lines.push(
      `const { error, response } = await client.${method}(${args});`,
      "if (!response.ok) throw new Error(`HTTP ${response.status}: ${JSON.stringify(error)}`);",
      "console.log(response.status);",
    );
  }
  return lines.join("\n");
}
