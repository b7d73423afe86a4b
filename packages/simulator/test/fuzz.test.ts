// Property-based fuzzing of the simulator (fast-check, fixed seed, fixed run counts). For every
// operation of the bundled spec it sends authenticated requests that break the spec — wrong types
// for every path and query parameter and body field, missing required fields, non-finite and
// look-alike numbers, deep nesting, overlong values, bodies that are not JSON, wrong content types,
// repeated parameters — and requests at the edge of what the spec allows (extra fields, huge
// numbers, 900 kB strings, 5,000-deep values where any value is allowed). Properties:
//   1. no answer is a 5xx (faults are off);
//   2. a request that breaks the spec answers a 4xx, with the simulator's error body `{"message"}`
//      whose message names the parameter or field (a request within the spec may be refused the
//      same way, for the simulator's own rules, or answered with a 2xx);
//   3. every answer to an operation has a status the operation documents, and every 2xx body is
//      valid against the operation's response schema;
//   4. without a token, every such request is a 401 (authentication comes first);
//   5. a valid request to every operation still works afterwards.
// What only the raw HTTP layer can carry (two Authorization headers, overlong request lines and
// headers, malformed header lines, a body shorter than its Content-Length) goes over a socket to
// 127.0.0.1. Each known finding also has its own example-based case. Failures are collected per
// property (deduplicated) rather than stopping at the first, so one run lists every kind seen;
// the totals (requests, statuses, 5xx) are printed at the end. No assertion depends on speed.

import { connect } from "node:net";
import {
  createSpecValidator,
  documentsStatus,
  type JsonObject,
  loadBundle,
  loadModel,
  type OperationModel,
  type ParameterModel,
  platformFactsOf,
  resolveRef,
  taskPollingOf,
  type ValueFacts,
} from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createDefaultWorld,
  createSimulator,
  DEFAULT_CLIENT_ID,
  DEFAULT_TOKENS,
  DEFAULTS,
  type Simulator,
  startSimulator,
} from "../src/index.js";
import type { TaskList } from "./harness.js";
import { tokenPrefix } from "./harness.js";
import { worldPathValues } from "./world-path-values.js";

type Task = components["schemas"]["Task"];
type TaskIdList = components["schemas"]["TaskIdList"];

const SEED = 20_261_123;
/** Random runs per operation and property, after the enumerated examples. */
const RUNS = 100;
/** Runs of the raw-socket property (each opens a connection). */
const SOCKET_RUNS = 30;
const TIMEOUT = 120_000;
fc.configureGlobal({ seed: SEED, numRuns: RUNS });

// ---------------------------------------------------------------------------------------------
// The spec's operations, from the spec model (the body's example from the node the model points at)

/** A JSON Schema node of the description, read as the fuzzer needs it. */
interface SchemaNode {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  items?: unknown;
}

/** What a parameter's value may be: the facts the model gives of its schema. */
type Param = ParameterModel;

interface Operation {
  model: OperationModel;
  operationId: string;
  method: string;
  /** The path template as in the spec. */
  path: string;
  params: readonly Param[];
  body?: { required: boolean; schema: SchemaNode; pointer: string; example: unknown };
  security: readonly string[];
}

const doc = loadBundle();
const model = loadModel();
/** Longer than any task of the spec's polling table runs. */
const LONGEST_TASK_SECONDS =
  2 *
  Math.max(
    DEFAULTS.unlistedTaskSeconds,
    ...taskPollingOf(model).intervals.map((r) => r.typicalDurationSeconds.max),
  );
const validator = createSpecValidator(doc, model);
/** A schema node with its `$ref`s followed (siblings such as a description kept). */
const schemaAt = (node: unknown): SchemaNode => resolveRef<SchemaNode>(doc, node) ?? {};
const nodeAt = (node: unknown): JsonObject => resolveRef<JsonObject>(doc, node) ?? {};

/** The JSON body's example: the media's first named example, else its `example`. */
function bodyExample(op: OperationModel): unknown {
  const requestBody = nodeAt(nodeAt({ $ref: op.pointer }).requestBody);
  const media = nodeAt(nodeAt(requestBody.content)["application/json"]);
  const examples = Object.values(nodeAt(media.examples)).map((e) => nodeAt(e).value);
  return examples[0] ?? media.example;
}

const operations: Operation[] = model.operations.map((op) => {
  const json = op.requestBody?.content.find((m) => m.contentType === "application/json")?.schemaPointer;
  return {
    model: op,
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    params: op.parameters.filter((p) => p.in === "path" || p.in === "query"),
    ...(op.requestBody && json
      ? {
          body: {
            required: op.requestBody.required,
            schema: schemaAt({ $ref: json }),
            pointer: json,
            example: bodyExample(op),
          },
        }
      : {}),
    security: op.security,
  };
});

function bodyOf(op: Operation): NonNullable<Operation["body"]> {
  if (!op.body) throw new Error(`${op.operationId} has no JSON body in the spec.`);
  return op.body;
}

function operation(operationId: string): Operation {
  const found = operations.find((o) => o.operationId === operationId);
  if (!found) throw new Error(`The spec has no operation ${operationId}`);
  return found;
}

// ---------------------------------------------------------------------------------------------
// A valid request per operation: path values from the default world, the body from the spec's
// example, the token the operation's security asks for

const world = createDefaultWorld(DEFAULTS.randomSeed);
/** Valid values of an operation's path parameters, from the default world (the fixture registry's collections). */
const pathValuesOf = (op: Operation): Record<string, string> =>
  Object.fromEntries(
    Object.entries(worldPathValues(world, op.model, DEFAULT_CLIENT_ID)).map(([name, value]) => [
      name,
      String(value),
    ]),
  );

interface Req {
  method: string;
  /** Raw (already encoded) path parameter values. */
  pathValues: Record<string, string>;
  /** Raw (already encoded) query pairs, in order. */
  query: [string, string][];
  headers: Record<string, string>;
  body?: string;
  token: string | null;
}

function baseline(op: Operation): Req {
  const pathValues = pathValuesOf(op);
  const query: [string, string][] = op.params
    .filter((p) => p.in === "query" && p.required)
    .map((p) => [p.name, encodeURIComponent(String(p.example))]);
  if (op.body?.required && op.body.example === undefined)
    throw new Error(`${op.operationId} needs a body and its spec shows no example`);
  const body = op.body?.example === undefined ? undefined : JSON.stringify(op.body.example);
  return {
    method: op.method,
    pathValues,
    query,
    headers: body === undefined ? {} : { "content-type": "application/json" },
    body,
    token: op.security.includes("APIKey") ? DEFAULT_TOKENS.client : DEFAULT_TOKENS.reseller,
  };
}

function urlOf(op: Operation, req: Req): string {
  const path = op.path.replace(/\{([^}]+)\}/g, (_, name: string) => req.pathValues[name] ?? "");
  return req.query.length === 0 ? path : `${path}?${req.query.map(([k, v]) => `${k}=${v}`).join("&")}`;
}

// ---------------------------------------------------------------------------------------------
// Bookkeeping: every request of the file is counted

const tally = { sent: 0, overSockets: 0, statuses: new Map<string, number>(), serverErrors: 0 };
function count(status: number | string, socket = false) {
  tally.sent++;
  if (socket) tally.overSockets++;
  tally.statuses.set(String(status), (tally.statuses.get(String(status)) ?? 0) + 1);
  if (typeof status === "number" && status >= 500) tally.serverErrors++;
}

interface Answer {
  status: number;
  contentType: string | undefined;
  text: string;
}

let sim: Simulator;

async function send(op: Operation, req: Req, target: Simulator = sim, counted = true): Promise<Answer> {
  const headers: Record<string, string> = { ...req.headers };
  if (req.token !== null) headers.authorization = `${tokenPrefix}${req.token}`;
  const answer = await target.app.inject({
    method: req.method as "GET",
    url: urlOf(op, req),
    headers,
    ...(req.body === undefined ? {} : { payload: req.body }),
  });
  if (counted) count(answer.statusCode);
  const contentType = answer.headers["content-type"];
  return { status: answer.statusCode, contentType: contentType?.toString(), text: answer.body };
}

/** Problems of an answer that should be the simulator's error body: JSON `{"message": "..."}`. */
function errorShapeProblems(answer: { contentType?: string | undefined; text: string }): string[] {
  if (!/^application\/json\b/i.test(answer.contentType ?? ""))
    return [`content type ${JSON.stringify(answer.contentType ?? null)}, not application/json`];
  let body: unknown;
  try {
    body = JSON.parse(answer.text);
  } catch {
    return [`body is not JSON: ${clip(answer.text)}`];
  }
  if (body === null || typeof body !== "object" || Array.isArray(body))
    return [`body is not an object: ${clip(answer.text)}`];
  const keys = Object.keys(body);
  const problems: string[] = [];
  if (keys.length !== 1 || keys[0] !== "message")
    problems.push(`body is not {"message"} alone: ${clip(answer.text)}`);
  const message = (body as { message?: unknown }).message;
  if (typeof message !== "string" || message.trim() === "") problems.push("message is missing or empty");
  return problems;
}

function messageOf(answer: Answer): string {
  try {
    const body = JSON.parse(answer.text);
    return typeof body?.message === "string" ? body.message : "";
  } catch {
    return "";
  }
}

function clip(text: string, max = 160): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** Problems of an answer against the spec: the status must be documented, a JSON body valid. */
function specProblems(op: Operation, answer: Answer): string[] {
  let body: unknown;
  if (answer.text !== "") {
    try {
      body = JSON.parse(answer.text);
    } catch {
      return [`body is not JSON: ${clip(answer.text)}`];
    }
  }
  return validator.validateResponse({
    method: op.method,
    path: op.path,
    status: answer.status,
    contentType: answer.contentType ?? null,
    body,
    hasBody: answer.text !== "",
  });
}

// ---------------------------------------------------------------------------------------------
// Probes: one request with what was changed and what it must answer

interface Probe {
  op: Operation;
  /** What was changed, for the report. */
  label: string;
  req: Req;
  /** The request breaks the spec: only a 4xx is right. Else a 2xx is right too. */
  breaksSpec: boolean;
  /** A 4xx message must contain one of these (case-insensitive). */
  names: string[];
  /** A 404 needs no name (a path value that names no resource). */
  notFoundIsNamed?: boolean;
}

function probe(p: Probe): Probe {
  return Object.assign(p, { [fc.toStringMethod]: () => `${p.op.operationId}: ${clip(p.label, 200)}` });
}

/** The problems of one probe's answer (empty: it answered as it must). */
async function check(p: Probe): Promise<{ answer: Answer; problems: string[] }> {
  const answer = await send(p.op, p.req);
  const problems: string[] = [];
  if (answer.status >= 500) problems.push(`answered ${answer.status}`);
  else if (p.breaksSpec && !(answer.status >= 400 && answer.status < 500))
    problems.push(`answered ${answer.status}, not a 4xx`);
  if (answer.status >= 400) {
    problems.push(...errorShapeProblems(answer));
    const message = messageOf(answer).toLowerCase();
    const named =
      (p.notFoundIsNamed && answer.status === 404) || p.names.some((n) => message.includes(n.toLowerCase()));
    if (answer.status < 500 && message !== "" && !named)
      problems.push(`message names none of ${p.names.join(", ")}: ${clip(messageOf(answer))}`);
  }
  problems.push(...specProblems(p.op, answer).map((s) => `off-spec: ${s}`));
  return { answer, problems };
}

/** Collects failures of a property, deduplicated by what failed, to list them all at the end. */
class Failures {
  private readonly byKind = new Map<string, { example: string; count: number }>();
  add(p: Probe, answer: Answer, problems: string[]) {
    const kind = `${p.op.operationId} ${p.label.replace(/".*"|=.*$/s, "…").slice(0, 60)} → ${answer.status}: ${problems
      .map((s) => s.replace(/:.*$/s, ""))
      .join("; ")}`;
    const seen = this.byKind.get(kind);
    if (seen) seen.count++;
    else
      this.byKind.set(kind, {
        example: `${p.op.method} ${clip(urlOf(p.op, p.req), 140)} [${clip(p.label, 140)}] → ${answer.status} ${clip(answer.text, 200)} — ${problems.join("; ")}`,
        count: 1,
      });
  }
  list(): string[] {
    return [...this.byKind.values()].map((f) => `${f.example}${f.count > 1 ? ` (×${f.count})` : ""}`);
  }
}

async function runProperty(arbitrary: fc.Arbitrary<Probe>, examples: Probe[], runs = RUNS) {
  const failures = new Failures();
  await fc.assert(
    fc.asyncProperty(arbitrary, async (p) => {
      const { answer, problems } = await check(p);
      if (problems.length > 0) failures.add(p, answer, problems);
    }),
    { numRuns: runs, examples: examples.map((e) => [e] as [Probe]) },
  );
  return failures.list();
}

// ---------------------------------------------------------------------------------------------
// Values

/** Decimal integers as the spec's integer parameters are written (no sign, base or exponent tricks). */
const INTEGER_TEXT = /^-?(0|[1-9]\d*)$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Whether a decoded parameter text breaks the parameter's schema. */
function textBreaks(schema: ValueFacts, text: string): boolean {
  if (schema.type === "array") return schema.items ? textBreaks(schema.items, text) : false;
  if (schema.type === "integer" || schema.type === "number") {
    const pattern = schema.type === "integer" ? INTEGER_TEXT : /^-?(0|[1-9]\d*)(\.\d+)?$/;
    if (!pattern.test(text)) return true;
    const n = Number(text);
    return (
      (schema.minimum !== undefined && n < schema.minimum) ||
      (schema.maximum !== undefined && n > schema.maximum)
    );
  }
  if (Array.isArray(schema.enum)) return !schema.enum.includes(text);
  if (schema.format === "uuid") return !UUID.test(text);
  return false;
}

function decode(raw: string, plusIsSpace: boolean): string | undefined {
  try {
    return decodeURIComponent(plusIsSpace ? raw.replace(/\+/g, " ") : raw);
  } catch {
    return undefined; // a malformed escape: no value of any schema
  }
}

/** Integer look-alikes the brief names, as raw query text. */
const LOOK_ALIKES = ["0b11", "0x1F", "1e2", "%205", "%20", "+3", "%2B3", "1.0"];
const NON_FINITE = ["Infinity", "-Infinity", "NaN", "1e400", "-1e400", "1e308"];

/** Texts a lenient parser reads as the integer n without being n's decimal form. */
function lookAlikesOf(n: number, inQuery: boolean): string[] {
  return [
    `0x${n.toString(16)}`,
    `0b${n.toString(2)}`,
    `0o${n.toString(8)}`,
    `${n}.0`,
    `${n}e0`,
    `%2B${n}`,
    `%20${n}`,
    `${n}%20`,
    `%09${n}`,
    ...(inQuery ? [`+${n}`] : []),
  ];
}

/** Raw parameter texts, most of which break a schema of the given kind. */
function parameterTexts(p: Param, valid: number | undefined): fc.Arbitrary<string> {
  const inQuery = p.in === "query";
  const schema: ValueFacts = p.type === "array" ? (p.items ?? {}) : p;
  const common = [
    fc.string({ minLength: 1, maxLength: 16 }).map(encodeURIComponent),
    fc.constantFrom("%zz", "%", "%00", "%C0%AF", "null", "true", "[]", "{}", "undefined"),
  ];
  if (schema.type === "integer") {
    const bounds: fc.Arbitrary<string>[] = [];
    if (schema.minimum !== undefined)
      bounds.push(fc.integer({ min: -1e9, max: schema.minimum - 1 }).map(String));
    if (schema.maximum !== undefined)
      bounds.push(fc.integer({ min: schema.maximum + 1, max: 2 ** 31 }).map(String));
    return fc.oneof(
      fc.constantFrom(...LOOK_ALIKES, ...NON_FINITE, "-0", "99999999999999999999"),
      fc.constantFrom(...lookAlikesOf(valid ?? 1, inQuery)),
      fc
        .double({ noNaN: true, noDefaultInfinity: true })
        .filter((d) => !Number.isInteger(d))
        .map(String),
      fc.integer({ min: 101, max: 400 }).map((n) => "9".repeat(n)),
      ...bounds,
      ...common,
    );
  }
  if (Array.isArray(schema.enum))
    return fc.oneof(
      fc.constantFrom(
        ...schema.enum.map((v: string) =>
          encodeURIComponent(v.toUpperCase() === v ? v.toLowerCase() : v.toUpperCase()),
        ),
      ),
      fc.constantFrom(...schema.enum.map((v: string) => encodeURIComponent(` ${v}`))),
      ...common,
    );
  if (schema.format === "uuid")
    return fc.oneof(
      fc.uuid().map((u) => `${u}0`),
      fc.uuid().map((u) => u.replace(/-/g, "")),
      fc.uuid().map((u) => `${u.slice(0, -1)}g`),
      fc.integer({ min: 101, max: 2000 }).map((n) => "a".repeat(n)),
      ...common,
    );
  // An unconstrained string: nothing breaks it; long and odd texts are still tried.
  return fc.oneof(
    fc.string({ minLength: 0, maxLength: 300, unit: "binary" }).map(encodeURIComponent),
    fc.integer({ min: 101, max: 4000 }).map((n) => "x".repeat(n)),
    ...common,
  );
}

/** A JSON value written as is into a body (numbers JSON.stringify cannot write, deep nesting). */
class RawJson {
  constructor(readonly text: string) {}
}

function serialize(value: unknown): string {
  if (value instanceof RawJson) return value.text;
  if (Array.isArray(value)) return `[${value.map(serialize).join(",")}]`;
  if (value !== null && typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${JSON.stringify(k)}:${serialize(v)}`)
      .join(",")}}`;
  return JSON.stringify(value) ?? "null";
}

const deep = (depth: number, kind: "array" | "object") =>
  new RawJson(
    kind === "array"
      ? `${"[".repeat(depth)}1${"]".repeat(depth)}`
      : `${'{"a":'.repeat(depth)}1${"}".repeat(depth)}`,
  );

/** Odd JSON values: wrong types for most schemas, non-finite and huge numbers, deep nesting, long strings. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.constantFrom(
    ...["1e308", "-1e308", "1e400", "-1e400", "-0", "9007199254740993", "1.5", "1e-400", "2e0"].map(
      (t) => new RawJson(t),
    ),
  ),
  fc.constantFrom("NaN", "Infinity", "-Infinity", "1e400", "", "0x1F", " 5", "1"),
  fc.constantFrom<unknown>(true, false, null, {}, [], [1], { a: 1 }, [null]),
  fc
    .record({ depth: fc.constantFrom(33, 500, 5_000, 10_000), kind: fc.constantFrom("array", "object") })
    .map(({ depth, kind }) => deep(depth, kind as "array" | "object")),
  fc.constantFrom(4_097, 70_000, 900_000).map((n) => "n".repeat(n)),
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: "binary", maxLength: 40 }),
  fc.integer(),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
);

/** A string this long may be refused for the size of the whole body: then "body" names the problem. */
const isLarge = (value: unknown) => typeof value === "string" && value.length > 4096;

// ---------------------------------------------------------------------------------------------
// Body sites: every field of the body schema the spec's example reaches, and the objects there

interface BodySite {
  path: (string | number)[];
  schema: SchemaNode;
  requiredInParent: boolean;
}

function bodySites(schema: SchemaNode, example: unknown, path: (string | number)[] = []): BodySite[] {
  const sites: BodySite[] = [];
  if (schema.type === "object" || schema.properties) {
    const record = (example ?? {}) as Record<string, unknown>;
    for (const [key, raw] of Object.entries(schema.properties ?? {})) {
      const child = schemaAt(raw);
      sites.push({
        path: [...path, key],
        schema: child,
        requiredInParent: (schema.required ?? []).includes(key),
      });
      if (record[key] !== undefined) sites.push(...bodySites(child, record[key], [...path, key]));
    }
  } else if (schema.type === "array" && schema.items && Array.isArray(example) && example.length > 0) {
    const items = schemaAt(schema.items);
    sites.push({ path: [...path, 0], schema: items, requiredInParent: false });
    sites.push(...bodySites(items, example[0], [...path, 0]));
  }
  return sites;
}

/** The example body with the value at `path` replaced (or removed), creating objects on the way. */
function withValue(example: unknown, path: (string | number)[], value: unknown, remove = false): unknown {
  /** An object or array of the body, by key or index. */
  type Container = Record<string | number, unknown>;
  const root = structuredClone(example ?? {});
  let node = root as Container;
  for (const [i, key] of path.entries()) {
    const last = i === path.length - 1;
    if (last) {
      if (remove) delete node[key];
      else Object.defineProperty(node, key, { value, enumerable: true, writable: true, configurable: true });
    } else {
      const next = node[key];
      if (next === null || typeof next !== "object") node[key] = typeof path[i + 1] === "number" ? [] : {};
      node = node[key] as Container;
    }
  }
  return root;
}

function leafName(path: (string | number)[]): string {
  return String([...path].reverse().find((s) => typeof s === "string") ?? "body");
}

/** What a message may call a body field: its key, or the array item it is in ("fields[0]"). */
function fieldNames(path: (string | number)[]): string[] {
  const item = path.slice(0, -1);
  return typeof item.at(-1) === "number" ? [leafName(path), fieldPath(item)] : [leafName(path)];
}

function fieldPath(path: (string | number)[]): string {
  return path.reduce<string>(
    (out, s) => (typeof s === "number" ? `${out}[${s}]` : out ? `${out}.${s}` : s),
    "",
  );
}

/** Whether a body text breaks the operation's body schema (decided by the spec's own validator). */
function bodyBreaks(op: Operation, text: string): boolean {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return true;
  }
  return validator.validateSchema(op.body?.pointer ?? "", value).length > 0;
}

// ---------------------------------------------------------------------------------------------
// Probe generators per operation

function parameterProbes(op: Operation): fc.Arbitrary<Probe>[] {
  return op.params.map((p) =>
    parameterTexts(p, p.in === "path" ? Number(pathValuesOf(op)[p.name]) : undefined).map((raw) =>
      parameterProbe(op, p, raw),
    ),
  );
}

function parameterProbe(op: Operation, p: Param, raw: string): Probe {
  const req = baseline(op);
  const inQuery = p.in === "query";
  if (inQuery) req.query = [...req.query.filter(([k]) => k !== p.name), [p.name, raw]];
  else req.pathValues = { ...req.pathValues, [p.name]: raw };
  const text = decode(raw, inQuery);
  return probe({
    op,
    label: `${p.in} ${p.name}="${raw}"`,
    req,
    // A malformed escape is no text at all: it breaks every schema that constrains the text. An
    // operation that documents no refusal drops a query value that breaks it (README), so 2xx is right.
    breaksSpec: textBreaks(p, text ?? "\uFFFD") && (!inQuery || canRefuse(op)),
    names: [p.name],
    notFoundIsNamed: !inQuery,
  });
}

const canRefuse = (op: Operation) => documentsStatus(op.model, 400) || documentsStatus(op.model, 404);

/** Whether the platform's published descriptions document the query parameter as repeatable (a fact the seed leaves open). */
const repeatableOnThePlatform = (op: Operation, name: string) =>
  platformFactsOf(op.operationId).some(
    (f) => f.kind === "parameter" && f.in === "query" && f.name === name && f.repeatable === true,
  );

function duplicateProbes(op: Operation): fc.Arbitrary<Probe>[] {
  return op.params
    .filter((p) => p.in === "query" && p.type !== "array" && !repeatableOnThePlatform(op, p.name))
    .map((p) => {
      const valid = String(p.example ?? p.enum?.[0] ?? p.minimum ?? "1");
      const second =
        p.type === "integer"
          ? fc.integer({ min: p.minimum ?? 1, max: p.maximum ?? 100 }).map(String)
          : fc.constant(valid);
      return second.map((other) => {
        const req = baseline(op);
        req.query = [...req.query, [p.name, encodeURIComponent(valid)], [p.name, encodeURIComponent(other)]];
        return probe({
          op,
          label: `query ${p.name} twice (${valid}, ${other})`,
          req,
          // Dropped where the operation documents no refusal (README).
          breaksSpec: canRefuse(op),
          names: [p.name],
        });
      });
    });
}

function bodyProbe(
  op: Operation,
  label: string,
  body: string,
  names: string[],
  headers?: Record<string, string>,
): Probe {
  const req = baseline(op);
  req.body = body;
  if (headers) req.headers = headers;
  const jsonContent = /^application\/json\s*(;|$)/i.test(req.headers["content-type"] ?? "");
  return probe({ op, label, req, breaksSpec: !jsonContent || bodyBreaks(op, body), names });
}

function bodyProbes(op: Operation): fc.Arbitrary<Probe>[] {
  const body = op.body;
  if (!body) return [];
  const sites = bodySites(body.schema, body.example);
  const objects = [
    [] as (string | number)[],
    ...sites.filter((s) => s.schema.type === "object" || s.schema.properties).map((s) => s.path),
  ];
  const arbs: fc.Arbitrary<Probe>[] = [
    fc
      .record({ site: fc.constantFrom(...sites), value: oddValue })
      .map(({ site, value }) =>
        bodyProbe(
          op,
          `body ${fieldPath(site.path)}=${clip(serialize(value), 60)}`,
          serialize(withValue(body.example, site.path, value)),
          isLarge(value) ? [...fieldNames(site.path), "body"] : fieldNames(site.path),
        ),
      ),
    fc
      .record({
        parent: fc.constantFrom(...objects),
        key: fc.oneof(
          fc.string({ minLength: 1, maxLength: 12 }),
          fc.constantFrom("__proto__", "constructor", "toString"),
        ),
        value: oddValue,
      })
      .filter(({ parent, key }) => !sites.some((s) => fieldPath(s.path) === fieldPath([...parent, key])))
      .map(({ parent, key, value }) =>
        bodyProbe(
          op,
          `extra body field ${fieldPath([...parent, key])}=${clip(serialize(value), 60)}`,
          serialize(withValue(body.example, [...parent, key], value)),
          [
            key,
            ...(["__proto__", "constructor"].includes(key) ? ["prototype"] : []),
            ...(isLarge(value) ? ["body"] : []),
          ],
        ),
      ),
    fc
      .oneof(
        fc.constantFrom(
          "",
          "{",
          "not json",
          "[1,",
          "{'size':1}",
          "nul",
          '{"a":1}}',
          "\u0000",
          "null",
          "[]",
          "1",
          '"x"',
          "true",
        ),
        fc.string({ maxLength: 30 }),
      )
      .map((text) => bodyProbe(op, `body text ${JSON.stringify(text)}`, text, ["body", "JSON"])),
    fc
      .constantFrom(
        "text/plain",
        "application/xml",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/octet-stream",
        "text/json",
        "application/jsonx",
        "",
      )
      .map((type) =>
        bodyProbe(
          op,
          `content type "${type}"`,
          JSON.stringify(body.example),
          ["content-type", "content type", "media type"],
          type === "" ? {} : { "content-type": type },
        ),
      ),
    fc
      .constantFrom(1_100_000, 2_000_000)
      .map((n) =>
        bodyProbe(op, `body of ${n} bytes`, serialize(withValue(body.example, ["padding"], "p".repeat(n))), [
          "body",
          "padding",
        ]),
      ),
  ];
  const required = sites.filter((s) => s.requiredInParent);
  if (required.length > 0)
    arbs.push(
      fc
        .constantFrom(...required)
        .map((site) =>
          bodyProbe(
            op,
            `body without ${fieldPath(site.path)}`,
            serialize(withValue(body.example, site.path, undefined, true)),
            fieldNames(site.path),
          ),
        ),
    );
  if (body.required) {
    arbs.push(
      fc.constant(null).map(() => {
        const req = baseline(op);
        req.body = undefined;
        req.headers = {};
        return probe({ op, label: "no body", req, breaksSpec: true, names: ["body"] });
      }),
    );
  }
  return arbs;
}

/**
 * A query parameter the operation does not list. It breaks the spec, and is refused where the
 * operation documents a refusal (400, else 404); where it documents neither it is ignored (README).
 */
function unlistedQueryProbes(op: Operation): fc.Arbitrary<Probe> {
  const listed = new Set(op.params.filter((p) => p.in === "query").map((p) => p.name));
  return fc
    .oneof(
      fc.string({ minLength: 1, maxLength: 20 }),
      fc.constantFrom(...UNLISTED_NAMES, ...[...listed].map((n) => n.toUpperCase())),
    )
    .filter((name) => !listed.has(name))
    .map((name) => unlistedQueryProbe(op, name));
}

/** Names no operation lists, some of which a careless parser turns into an object's own keys. */
const UNLISTED_NAMES = ["__proto__", "constructor", "toString", "hasOwnProperty", "foo", 'a"b'];

function unlistedQueryProbe(op: Operation, name: string): Probe {
  const req = baseline(op);
  req.query = [...req.query, [encodeURIComponent(name), "1"]];
  return probe({
    op,
    label: `unlisted query ${name}=1`,
    req,
    breaksSpec: documentsStatus(op.model, 400) || documentsStatus(op.model, 404),
    // The message quotes the name as JSON.
    names: [name, JSON.stringify(name).slice(1, -1)],
  });
}

function probesOf(op: Operation): fc.Arbitrary<Probe> {
  return fc.oneof(...parameterProbes(op), ...duplicateProbes(op), ...bodyProbes(op), unlistedQueryProbes(op));
}

/** One probe per site with the values the brief names, run before the random ones. */
function enumeratedProbes(op: Operation): Probe[] {
  const probes: Probe[] = [];
  for (const p of op.params) {
    const texts =
      p.type === "integer"
        ? [...LOOK_ALIKES, ...NON_FINITE, "abc", "9".repeat(101)]
        : p.format === "uuid"
          ? ["not-a-uuid", "a".repeat(101)]
          : Array.isArray(p.enum ?? p.items?.enum)
            ? ["not-one-of-them"]
            : ["x".repeat(101)];
    for (const raw of texts) probes.push(parameterProbe(op, p, raw));
  }
  for (const name of UNLISTED_NAMES) probes.push(unlistedQueryProbe(op, name));
  if (op.body) {
    for (const site of bodySites(op.body.schema, op.body.example)) {
      for (const value of [
        deep(5_000, "array"),
        deep(5_000, "object"),
        new RawJson("1e308"),
        new RawJson("1e400"),
        "NaN",
      ]) {
        probes.push(
          bodyProbe(
            op,
            `body ${fieldPath(site.path)}=${clip(serialize(value), 40)}`,
            serialize(withValue(op.body.example, site.path, value)),
            fieldNames(site.path),
          ),
        );
      }
      if (site.schema.type === "string")
        probes.push(
          bodyProbe(
            op,
            `body ${fieldPath(site.path)}=<900 kB>`,
            serialize(withValue(op.body.example, site.path, "n".repeat(900_000))),
            [...fieldNames(site.path), "body"],
          ),
        );
    }
  }
  return probes;
}

// ---------------------------------------------------------------------------------------------
// Raw HTTP over a socket

interface RawAnswer {
  status?: number;
  headers: Record<string, string>;
  contentType?: string;
  text: string;
  /** The server closed the connection (with or without an answer). */
  closed: boolean;
  /** Nothing happened within the wait. */
  timedOut: boolean;
}

/** Writes raw bytes to the simulator and reads one answer (or a close, or nothing within waitMs). */
function rawExchange(port: number, request: string, waitMs = 15_000): Promise<RawAnswer> {
  return new Promise((done) => {
    const socket = connect({ host: "127.0.0.1", port });
    let data = Buffer.alloc(0);
    let settled = false;
    const finish = (closed: boolean, timedOut: boolean) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = data.toString("latin1");
      const head = text.indexOf("\r\n\r\n");
      const lines = (head >= 0 ? text.slice(0, head) : text).split("\r\n");
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1];
      const headers: Record<string, string> = {};
      for (const line of lines.slice(1)) {
        const colon = line.indexOf(":");
        if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim();
      }
      const answer: RawAnswer = {
        status: status === undefined ? undefined : Number(status),
        headers,
        contentType: headers["content-type"],
        text:
          head >= 0
            ? data.subarray(Buffer.byteLength(text.slice(0, head + 4), "latin1")).toString("utf8")
            : "",
        closed,
        timedOut,
      };
      count(answer.status ?? (timedOut ? "no answer" : "closed"), true);
      done(answer);
    };
    const timer = setTimeout(() => finish(false, true), waitMs);
    socket.on("data", (chunk) => {
      data = Buffer.concat([data, chunk]);
      const text = data.toString("latin1");
      const head = text.indexOf("\r\n\r\n");
      if (head < 0) return;
      const length = /\r\ncontent-length:\s*(\d+)/i.exec(text.slice(0, head))?.[1];
      if (length !== undefined && data.length >= head + 4 + Number(length)) finish(false, false);
    });
    socket.on("error", () => finish(true, false));
    socket.on("close", () => finish(true, false));
    socket.on("connect", () => socket.write(request, "latin1"));
  });
}

function rawRequest(op: Operation, req: Req, extraHeaderLines: string[] = []): string {
  const lines = [`${req.method} ${urlOf(op, req)} HTTP/1.1`, "Host: 127.0.0.1", "Connection: close"];
  if (req.token !== null) lines.push(`Authorization: ${tokenPrefix}${req.token}`);
  for (const [name, value] of Object.entries(req.headers)) lines.push(`${name}: ${value}`);
  if (req.body !== undefined) lines.push(`Content-Length: ${Buffer.byteLength(req.body)}`);
  lines.push(...extraHeaderLines);
  return `${lines.join("\r\n")}\r\n\r\n${req.body ?? ""}`;
}

/** Problems of a raw answer that must be a 4xx with the simulator's error body. */
function rawProblems(answer: RawAnswer, expected?: number[]): string[] {
  if (answer.status === undefined)
    return [answer.timedOut ? "no answer within the wait" : "connection closed without an answer"];
  const problems: string[] = [];
  if (expected ? !expected.includes(answer.status) : !(answer.status >= 400 && answer.status < 500))
    problems.push(`answered ${answer.status}, not ${expected ? expected.join(" or ") : "a 4xx"}`);
  problems.push(...errorShapeProblems(answer));
  return problems;
}

const describeRaw = (a: RawAnswer) =>
  `${a.status ?? (a.timedOut ? "no answer" : "closed")} ${a.contentType ?? ""} ${clip(a.text, 200)}`;

// ---------------------------------------------------------------------------------------------

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {}, rateLimit: 0, timeScale: 0.001 });
});

afterAll(async () => {
  await sim?.close();
  const statuses = [...tally.statuses.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([status, n]) => `${status}×${n}`)
    .join(", ");
  console.log(
    `fuzz (seed ${SEED}, ${RUNS} random runs per operation and property): ${tally.sent} requests (${tally.overSockets} over sockets); statuses ${statuses}; 5xx: ${tally.serverErrors}`,
  );
});

async function baselineProblems(): Promise<string[]> {
  const problems: string[] = [];
  for (const op of operations) {
    const answer = await send(op, baseline(op));
    if (answer.status < 200 || answer.status > 299)
      problems.push(`${op.operationId}: answered ${answer.status} ${clip(answer.text)}`);
    problems.push(...specProblems(op, answer).map((s) => `${op.operationId}: off-spec: ${s}`));
  }
  return problems;
}

describe("fuzz: every operation of the spec", () => {
  it("has a valid request per operation (the spec's example, values from the world) that answers a valid 2xx", async () => {
    expect(operations.length).toBeGreaterThan(0);
    expect(await baselineProblems()).toEqual([]);
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    "%s: a request that breaks the spec answers a 4xx {message} naming the problem; one within it a 4xx so or a valid 2xx; never a 5xx",
    async (_, op) => {
      const failures = await runProperty(probesOf(op), enumeratedProbes(op));
      expect(failures).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "checks the token first: without one, every probe of every operation answers 401 {message}",
    async () => {
      const failures: string[] = [];
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom(...operations).chain((op) => probesOf(op)),
          fc.constantFrom<string | null>(null, "bogus", `${DEFAULT_TOKENS.client}x`),
          async (p, token) => {
            const req = { ...p.req, token };
            const answer = await send(p.op, req);
            const problems = [
              ...(answer.status === 401 ? [] : [`answered ${answer.status}, not 401`]),
              ...errorShapeProblems(answer),
            ];
            if (problems.length > 0)
              failures.push(
                `${p.op.operationId} [${clip(p.label, 100)}] token ${token}: ${problems.join("; ")} — ${clip(answer.text)}`,
              );
          },
        ),
        { numRuns: RUNS * 2 },
      );
      expect(failures.slice(0, 30), `${failures.length} failures`).toEqual([]);
    },
    TIMEOUT,
  );

  it(
    "answers odd raw HTTP (repeated Authorization, overlong request lines and headers, malformed header lines) with a 4xx {message}",
    async () => {
      const op = operation("listProjects");
      const failures: string[] = [];
      const variant = fc.oneof(
        fc
          .tuple(
            fc.constantFrom(DEFAULT_TOKENS.client, "bogus", ""),
            fc.constantFrom(DEFAULT_TOKENS.client, "bogus", ""),
          )
          .map(([a, b]) => ({
            label: `Authorization twice: "${a}", "${b}"`,
            text: rawRequest(op, { ...baseline(op), token: null }, [
              `Authorization: ${tokenPrefix}${a}`,
              `Authorization: ${tokenPrefix}${b}`,
            ]),
            expected: [401],
          })),
        fc.integer({ min: 17_000, max: 120_000 }).map((n) => {
          const req = baseline(op);
          req.query = [["q", "x".repeat(n)]];
          return { label: `URL of ${n} chars`, text: rawRequest(op, req), expected: undefined };
        }),
        fc.integer({ min: 17_000, max: 60_000 }).map((n) => ({
          label: `header of ${n} chars`,
          text: rawRequest(op, baseline(op), [`X-Long: ${"h".repeat(n)}`]),
          expected: undefined,
        })),
        fc
          .constantFrom(
            "NoColonHere",
            " leading-space: x",
            "Bad Name: x",
            "X-Ctl\u0001: y",
            "X-CR: a\rb",
            ": empty-name",
          )
          .map((line) => ({
            label: `header line ${JSON.stringify(line)}`,
            text: rawRequest(op, baseline(op), [line]),
            expected: [400],
          })),
      );
      await fc.assert(
        fc.asyncProperty(variant, async (v) => {
          const answer = await rawExchange(sim.port, v.text);
          const problems = rawProblems(answer, v.expected);
          if (problems.length > 0)
            failures.push(`${v.label}: ${problems.join("; ")} — ${describeRaw(answer)}`);
        }),
        { numRuns: SOCKET_RUNS },
      );
      expect([...new Set(failures.map((f) => f.replace(/\d{5,}/g, "N")))]).toEqual([]);
    },
    TIMEOUT,
  );

  it("still answers every operation's valid request with a valid 2xx afterwards", async () => {
    expect(await baselineProblems()).toEqual([]);
  });
});

// ---------------------------------------------------------------------------------------------
// The known findings, one case each

describe("known findings", () => {
  it("a 5,000-deep field_value in a protection profile update is a 4xx naming field_value, not a 500", async () => {
    const op = operation("updateProtectionProfile");
    const { schema, example } = bodyOf(op);
    const site = bodySites(schema, example).find((s) => leafName(s.path) === "field_value");
    if (!site) throw new Error("The spec's example of updateProtectionProfile does not reach field_value.");
    for (const kind of ["array", "object"] as const) {
      const body = serialize(withValue(example, site.path, deep(5_000, kind)));
      const { answer, problems } = await check(
        probe({
          op,
          label: `field_value ${kind} 5000 deep`,
          req: { ...baseline(op), body },
          breaksSpec: true,
          names: ["field_value"],
        }),
      );
      expect(problems, `${kind}: ${answer.status} ${clip(answer.text)}`).toEqual([]);
    }
  });

  it("check_limits with servers_count 1e308 is a 4xx naming servers_count or a 200 that is valid", async () => {
    const op = operation("checkVirtualGpuClusterLimits");
    const body = serialize(withValue(bodyOf(op).example, ["servers_count"], new RawJson("1e308")));
    const answer = await send(op, { ...baseline(op), body });
    if (answer.status >= 400 && answer.status < 500) {
      expect(errorShapeProblems(answer)).toEqual([]);
      expect(messageOf(answer)).toContain("servers_count");
    } else {
      expect(answer.status, clip(answer.text)).toBe(200);
      expect(specProblems(op, answer), clip(answer.text, 400)).toEqual([]);
    }
  });

  it("integer look-alikes and non-finite texts on every integer query parameter are 400s naming it", async () => {
    const failures: string[] = [];
    const integers = operations.flatMap((op) =>
      // Where the operation documents a refusal; elsewhere such a value is dropped (README).
      canRefuse(op)
        ? op.params.filter((p) => p.in === "query" && p.type === "integer").map((p) => [op, p] as const)
        : [],
    );
    expect(integers.length).toBeGreaterThan(0);
    for (const [op, p] of integers) {
      for (const raw of [...LOOK_ALIKES, "Infinity", "1e400", "NaN"]) {
        const answer = await send(op, parameterProbe(op, p, raw).req);
        const problems =
          answer.status !== 400
            ? [`answered ${answer.status} ${clip(answer.text, 80)}`]
            : [
                ...errorShapeProblems(answer),
                ...(messageOf(answer).includes(p.name)
                  ? []
                  : [`message does not name it: ${messageOf(answer)}`]),
              ];
        if (problems.length > 0) failures.push(`${op.operationId} ${p.name}=${raw}: ${problems.join("; ")}`);
      }
    }
    expect(failures).toEqual([]);
  });

  it("limit=-1 on the task list is a 400 naming limit (it returned every task but the last)", async () => {
    const op = operation("listTasks");
    const limit = op.params.find((p) => p.name === "limit");
    expect(limit?.in).toBe("query");
    const answer = await send(op, { ...baseline(op), query: [["limit", "-1"]] });
    expect(answer.status, clip(answer.text)).toBe(400);
    expect(errorShapeProblems(answer)).toEqual([]);
    expect(messageOf(answer)).toContain("limit");
  });

  it("two Authorization headers, a valid one then a bogus token, are refused with 401 (raw socket)", async () => {
    const op = operation("getCurrentClient");
    const text = rawRequest(op, { ...baseline(op), token: null }, [
      `Authorization: ${tokenPrefix}${DEFAULT_TOKENS.client}`,
      `Authorization: ${tokenPrefix}bogus`,
    ]);
    const answer = await rawExchange(sim.port, text);
    expect(rawProblems(answer, [401]), describeRaw(answer)).toEqual([]);
  });

  describe("Fastify's own answers have the platform's error shape, a documented status, and come after auth", () => {
    const overlong = "a".repeat(150);

    it("an unknown task id over 100 characters on getTask is a 404 {message}", async () => {
      const op = operation("getTask");
      const [taskId] = op.params;
      if (!taskId) throw new Error("getTask has no path parameter.");
      const { answer, problems } = await check(parameterProbe(op, taskId, overlong));
      expect(answer.status, clip(answer.text)).toBe(404);
      expect(problems).toEqual([]);
    });

    it("every path parameter over 100 characters answers a documented 4xx {message}", async () => {
      const failures: string[] = [];
      for (const op of operations)
        for (const p of op.params.filter((p) => p.in === "path")) {
          for (const raw of [overlong, "9".repeat(150)]) {
            const { answer, problems } = await check(parameterProbe(op, p, raw));
            if (problems.length > 0)
              failures.push(
                `${op.operationId} ${p.name}: ${answer.status} ${clip(answer.text)} — ${problems.join("; ")}`,
              );
          }
        }
      expect(failures).toEqual([]);
    });

    it("without a token, an overlong path parameter is a 401", async () => {
      const failures: string[] = [];
      for (const op of operations)
        for (const p of op.params.filter((p) => p.in === "path")) {
          const answer = await send(op, { ...parameterProbe(op, p, overlong).req, token: null });
          if (answer.status !== 401 || errorShapeProblems(answer).length > 0)
            failures.push(`${op.operationId} ${p.name}: ${answer.status} ${clip(answer.text)}`);
        }
      expect(failures).toEqual([]);
    });

    it("a ~100 kB URL is a 4xx {message} (raw socket)", async () => {
      const op = operation("listRegions");
      const req = baseline(op);
      req.query = [["q", "x".repeat(100_000)]];
      const answer = await rawExchange(sim.port, rawRequest(op, req));
      expect(rawProblems(answer), describeRaw(answer)).toEqual([]);
    });

    it("a malformed header line is a 400 {message} (raw socket)", async () => {
      const op = operation("listRegions");
      const answer = await rawExchange(sim.port, rawRequest(op, baseline(op), ["This is not a header"]));
      expect(rawProblems(answer, [400]), describeRaw(answer)).toEqual([]);
    });
  });

  it(
    "a body shorter than its Content-Length is answered 408 or 400, or the connection closed, within a bound",
    async () => {
      // A short timeout, for the test waits it out; every outcome it accepts is right however slow
      // the machine (a request still arriving when it runs out is a 408 too).
      const timed = await startSimulator({ port: 0, env: {}, rateLimit: 0, requestTimeoutMs: 200 });
      try {
        const op = operation("createVolume");
        const full = rawRequest(op, baseline(op));
        const short = full.slice(0, full.length - 5); // Content-Length promises 5 bytes more
        const answer = await rawExchange(timed.port, short, 15_000);
        expect(answer.timedOut, "neither an answer nor a close within 15 s").toBe(false);
        if (answer.status !== undefined)
          expect(rawProblems(answer, [408, 400]), describeRaw(answer)).toEqual([]);
      } finally {
        await timed.close();
      }
    },
    TIMEOUT,
  );

  it.each(["latency:0-1", "500:0.5"])(
    "faults %s draw from their own random source: the same randomSeed gives the same ids",
    async (faults) => {
      const createVolume = operation("createVolume");
      const getTask = operation("getTask");
      const listTasks = operation("listTasks");
      const run = async (withFaults: boolean) => {
        const target = await createSimulator({
          env: {},
          rateLimit: 0,
          randomSeed: 7,
          ...(withFaults ? { faults } : {}),
        });
        try {
          const untilOk = async <Body>(op: Operation, req: Req): Promise<Body> => {
            for (let attempt = 0; attempt < 100; attempt++) {
              const answer = await send(op, req, target, false);
              if (answer.status === 200) return JSON.parse(answer.text) as Body;
            }
            throw new Error(`${op.operationId} never answered 200`);
          };
          const tasks: string[] = [];
          for (let i = 0; i < 4; i++)
            tasks.push(...(await untilOk<TaskIdList>(createVolume, baseline(createVolume))).tasks);
          const listed = (await untilOk<TaskList>(listTasks, baseline(listTasks))).results.map((t) => t.id);
          target.advance(LONGEST_TASK_SECONDS);
          const volumes: string[] = [];
          for (const id of tasks) {
            const task = await untilOk<Task>(getTask, { ...baseline(getTask), pathValues: { task_id: id } });
            volumes.push(...(task.created_resources?.volumes ?? []));
          }
          return { tasks, listed, volumes };
        } finally {
          await target.close();
        }
      };
      const plain = await run(false);
      expect(plain.volumes.length).toBeGreaterThan(0);
      expect(await run(true)).toEqual(plain);
    },
    TIMEOUT,
  );
});
