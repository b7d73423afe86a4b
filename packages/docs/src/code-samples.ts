// Code samples for every operation, generated from the description (never written per
// operation): curl, TypeScript with @platform-api/client, and Python with the platform's own SDK
// (gcore-python) where it has a method for the operation. They go into `x-codeSamples`, which
// Redoc shows beside each operation.
import { buildModel, pollingAdviceFor, resolvePointer, type SpecModel } from "@platform-api/spec";
import { GCORE_PYTHON, type SdkMethod } from "./gcore-python.js";
import {
  exampleValue,
  isObject,
  type Json,
  listOperations,
  type Operation,
  tokenSchemeOf,
} from "./operations.js";

export interface CodeSample {
  lang: "Shell" | "TypeScript" | "Python";
  label: string;
  source: string;
}

/** Tokens contain a `$`, so the samples always carry them inside single quotes. */
export const EXAMPLE_TOKEN = "12345$0123456789abcdef";
export const EXAMPLE_RESELLER_TOKEN = "500$0123456789abcdef";

/** The address the samples call: the description's default server. */
export const baseUrl = (doc: Json): string => buildModel(doc).conventions.defaultBaseUrl;

export function codeSamplesFor(doc: Json, op: Operation): CodeSample[] {
  const python = pythonSample(doc, op);
  return [
    { lang: "Shell", label: "curl", source: curlSample(doc, op) },
    { lang: "TypeScript", label: "TypeScript", source: typescriptSample(doc, op) },
    ...(python === undefined ? [] : [{ lang: "Python" as const, label: "Python", source: python }]),
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
  const { headerName, tokenPrefix } = tokenSchemeOf(doc, op);
  const lines = [
    op.reseller
      ? "# The reseller admin-portal token; single quotes keep the shell off its `$`."
      : "# Single quotes keep the shell from expanding the `$` inside the token.",
    `curl${op.method === "get" ? "" : ` -X ${op.method.toUpperCase()}`} ${shellQuote(concreteUrl(doc, op))}`,
    `  -H ${shellQuote(`${headerName}: ${tokenPrefix}${token}`)}`,
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
  const { pagination, asyncTask } = op;
  // The helpers are functions that take the client: imported where the sample uses one.
  const helper = pagination ? "paginate" : asyncTask ? "waitForTasks" : undefined;
  const lines = [
    `import { createClient${helper ? `, ${helper}` : ""} } from "@platform-api/client";`,
    "",
    op.reseller
      ? "// Reads GCORE_RESELLER_API_KEY (the reseller admin-portal token) and GCORE_BASE_URL."
      : "// Reads GCORE_API_KEY and GCORE_BASE_URL from the environment.",
    "const client = createClient();",
    "",
  ];
  const init = initLiteral(doc, op, "");
  const args = `${JSON.stringify(op.path)}${init ? `, ${init}` : ""}`;

  if (pagination) {
    const name = itemName(doc, op, pagination.itemsField);
    lines.push(
      pagination.style === "page"
        ? `// Every item, page after page: follows \`${pagination.nextField}\` until it is null.`
        : `// Every item, page after page: \`${pagination.offsetParam}\` grows by \`${pagination.limitParam}\` until it reaches \`${pagination.countField}\`.`,
      `for await (const ${name} of paginate(client, ${args})) {`,
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
      `const [task] = await waitForTasks(client, data.${asyncTask.tasksField});`,
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

/** "TaskIdList" -> "task_id_list", "aiTask" -> "ai_task": a Python variable's name. */
const snakeCase = (name: string): string => name.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toLowerCase();

/** A Python literal for a JSON value, indented to sit at `indent`. */
export function pyLiteral(value: unknown, indent = ""): string {
  if (value === null) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  // JSON's string and number forms are Python's too (its escapes included).
  if (typeof value !== "object") return JSON.stringify(value);
  const inner = `${indent}    `;
  if (Array.isArray(value)) {
    if (value.length === 0) return "[]";
    return `[\n${value.map((v) => `${inner}${pyLiteral(v, inner)},`).join("\n")}\n${indent}]`;
  }
  const entries = Object.entries(value);
  if (entries.length === 0) return "{}";
  const body = entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${pyLiteral(v, inner)},`).join("\n");
  return `{\n${body}\n${indent}}`;
}

/**
 * The arguments of the SDK method's call: the positional path parameter, then the keywords the
 * method takes, then what it does not take in `extra_query` / `extra_body`.
 */
function pythonArguments(doc: Json, op: Operation, sdk: SdkMethod): string[] {
  const keywords = new Set(sdk.keywords ?? []);
  const positional: string[] = [];
  const named: [string, unknown][] = [];
  const extraQuery: Record<string, unknown> = {};
  const extraBody: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(pathParams(doc, op))) {
    if (name === sdk.positional) positional.push(pyLiteral(value, "    "));
    else if (keywords.has(name)) named.push([name, value]);
    else throw new Error(`${op.operationId}: gcore-python's ${sdk.method} takes no argument for ${name}.`);
  }
  if (sdk.positional !== undefined && positional.length === 0)
    throw new Error(`${op.operationId}: ${sdk.positional} is not a path parameter of ${op.path}.`);
  for (const [name, value] of Object.entries(requiredQuery(doc, op)))
    if (keywords.has(name)) named.push([name, value]);
    else extraQuery[name] = value;
  if (op.hasBody) {
    const body = op.bodyExample ?? {};
    if (!isObject(body)) throw new Error(`${op.operationId}: a body that is not an object has no keywords.`);
    for (const [name, value] of Object.entries(body))
      if (keywords.has(name)) named.push([name, value]);
      else extraBody[name] = value;
  }
  if (Object.keys(extraQuery).length > 0) named.push(["extra_query", extraQuery]);
  if (Object.keys(extraBody).length > 0) named.push(["extra_body", extraBody]);
  return [...positional, ...named.map(([name, value]) => `${name}=${pyLiteral(value, "    ")}`)];
}

/** PEP 8's line length: a call longer than this puts one argument on each line. */
const PYTHON_LINE = 79;

/** `${head}(arguments)${tail}`, on one line when it is short and every argument is. */
function pythonCall(head: string, args: string[], tail = ""): string {
  const oneLine = `${head}(${args.join(", ")})${tail}`;
  if (oneLine.length <= PYTHON_LINE && !oneLine.includes("\n")) return oneLine;
  return `${head}(\n${args.map((arg) => `    ${arg},`).join("\n")}\n)${tail}`;
}

/** The name of an operation's JSON answer, from its schema ("ClientAccount" -> "client_account"). */
function answerName(op: Operation): string {
  const pointer = op.responses
    .find((r) => r.status.startsWith("2") && r.content.some((m) => m.contentType === "application/json"))
    ?.content.find((m) => m.contentType === "application/json")?.schemaPointer;
  const schema = /^#\/components\/schemas\/([A-Za-z0-9]+)$/.exec(pointer ?? "")?.[1];
  return schema ? snakeCase(schema) : "answer";
}

/** What follows a task-starting call: the SDK polls the first task until it ends. */
function pythonWait(model: SpecModel, op: Operation, answer: string): string[] | undefined {
  const { asyncTask } = op;
  const poll = asyncTask ? GCORE_PYTHON.methods[asyncTask.pollOperationId]?.poll : undefined;
  if (!asyncTask || !poll) return undefined;
  const advice = pollingAdviceFor(model, asyncTask.taskType);
  const interval = advice.known ? [`${poll.intervalArgument}=${advice.interval.pollIntervalSeconds}`] : [];
  const created = asyncTask.createdResourcesKey ? `.${asyncTask.createdResourcesKey}` : "";
  return [
    "",
    advice.known
      ? "# The call only starts the work: wait for its task, polled at the spec's interval for its type."
      : "# The call only starts the work: wait for its task.",
    pythonCall(`task = client.${poll.method}`, [`${answer}.${asyncTask.tasksField}[0]`, ...interval]),
    `print(task.created_resources${created})`,
  ];
}

/** The operation's sample with gcore-python, or undefined when the SDK has no method for it. */
export function pythonSample(doc: Json, op: Operation): string | undefined {
  const sdk = GCORE_PYTHON.methods[op.operationId];
  if (!sdk) return undefined;
  if (!op.answersJson)
    throw new Error(`${op.operationId}: no Python sample shape for an answer without JSON.`);
  const { client } = GCORE_PYTHON;
  // Built once for the sample: the address and the polling interval are both read from it.
  const model = buildModel(doc);
  const args = pythonArguments(doc, op, sdk);
  const lines = [
    `from ${client.module} import ${client.name}`,
    "",
    op.reseller
      ? "# The reseller admin-portal token, in place of the client's."
      : "# The SDK also reads the token from GCORE_API_KEY and the address from GCORE_BASE_URL.",
    `client = ${client.name}(`,
    `    ${client.tokenArgument}=${pyLiteral(op.reseller ? EXAMPLE_RESELLER_TOKEN : EXAMPLE_TOKEN)},`,
    `    ${client.baseUrlArgument}=${pyLiteral(model.conventions.defaultBaseUrl)},`,
    ")",
    "",
  ];
  if (op.pagination) {
    const item = snakeCase(itemName(doc, op, op.pagination.itemsField));
    lines.push(
      "# Every item, page after page: the SDK asks for the next page as the loop reaches it.",
      pythonCall(`for ${item} in client.${sdk.method}`, args, ":"),
      `    print(${item})`,
    );
    return lines.join("\n");
  }
  const answer = answerName(op);
  lines.push(pythonCall(`${answer} = client.${sdk.method}`, args));
  lines.push(...(pythonWait(model, op, answer) ?? [`print(${answer})`]));
  return lines.join("\n");
}
