// The shape of one answer, as `conformance parity` compares a recording with a replay: what a
// client's code depends on (status, media type, Retry-After, which fields come and of what JSON
// type), never the values themselves: ids, times and counts differ between any two servers, and a
// comparison of them would drown the drift that matters. The one exception is a string the spec
// types with an enum: which of its values a server sends is part of its contract.

/** A JSON value's type; integers apart from other numbers, as the spec's `type` tells them apart. */
export type JsonType = "string" | "integer" | "number" | "boolean" | "null" | "object" | "array";

export interface AnswerShape {
  /** null: the exchange got no answer. */
  status: number | null;
  /** The Content-Type's media type, lower-cased, without its parameters; null without one. */
  mediaType: string | null;
  retryAfter: boolean;
  /**
   * "json": `fields` holds the body's shape; "empty": no body; "text": a body that is not JSON;
   * "unread": the body was not kept (a HAR without it, one larger than the suite reads).
   */
  body: "json" | "empty" | "text" | "unread";
  /** Field path → the JSON types seen there; "" is the body itself. */
  fields: Map<string, Set<JsonType>>;
  /** Field path → the strings seen there, at the paths `enumPaths` named only. */
  values: Map<string, Set<string>>;
  /** The body held more field paths than MAX_FIELD_PATHS: the rest were not read. */
  truncated?: boolean;
}

/**
 * The most field paths read of one body: a map keyed by ids (every key a path) could otherwise
 * make the comparison as large as the body. No answer of the spec's operations comes near it.
 */
export const MAX_FIELD_PATHS = 5000;
/** How deep a body is read: deeper nesting is no API's shape, and recursion must end. */
const MAX_DEPTH = 64;

export interface AnswerText {
  status: number | null;
  /** Header names lower-cased (as ObservedExchange and the HTTP layer give them). */
  headers: Record<string, string | string[] | undefined>;
  /** The body as text; undefined when it was not kept. */
  text: string | undefined;
}

export const ROOT = "";

/** A path one level down: an object's key, or `[]` for every item of an array (merged). */
export const childPath = (path: string, key: string | null): string =>
  key === null ? `${path}[]` : path === ROOT ? key : `${path}.${key}`;

/** How a path reads in a report: the body itself has no name of its own. */
export const shownPath = (path: string): string => (path === ROOT ? "(body)" : path);

export function jsonTypeOf(value: unknown): JsonType {
  if (value === null) return "null";
  if (Array.isArray(value)) return "array";
  if (typeof value === "number") return Number.isInteger(value) ? "integer" : "number";
  if (typeof value === "string" || typeof value === "boolean" || typeof value === "object")
    return typeof value as JsonType;
  // JSON.parse gives nothing else; a caller's own value would be read as what JSON makes of it.
  return "null";
}

export function mediaTypeOf(contentType: string | string[] | undefined): string | null {
  const first = Array.isArray(contentType) ? contentType[0] : contentType;
  const media = first?.split(";")[0]?.trim().toLowerCase();
  return media ? media : null;
}

/** Whether a media type is JSON's (application/json, application/problem+json, …). */
const isJsonMedia = (media: string | null) => media === null || /^application\/([\w.-]+\+)?json$/.test(media);

/**
 * The shape of an answer. `enumPaths`: the field paths where the spec types strings with an enum
 * (their values are kept); any other value is dropped as soon as its type is known.
 */
export function shapeOf(answer: AnswerText, enumPaths: ReadonlySet<string> = new Set()): AnswerShape {
  const header = (name: string) => answer.headers[name];
  const shape: AnswerShape = {
    status: answer.status,
    mediaType: mediaTypeOf(header("content-type")),
    retryAfter: header("retry-after") !== undefined,
    body: "empty",
    fields: new Map(),
    values: new Map(),
  };
  if (answer.text === undefined) {
    shape.body = "unread";
    return shape;
  }
  if (answer.text.trim() === "") return shape;
  let parsed: unknown;
  try {
    // A body served as text/html that happens to parse ("null", "1") is still not a JSON answer.
    if (!isJsonMedia(shape.mediaType)) throw new Error("not JSON media");
    parsed = JSON.parse(answer.text);
  } catch {
    shape.body = "text";
    return shape;
  }
  shape.body = "json";
  walk(parsed, ROOT, 0, shape, enumPaths);
  return shape;
}

function walk(
  value: unknown,
  path: string,
  depth: number,
  shape: AnswerShape,
  enumPaths: ReadonlySet<string>,
): void {
  let types = shape.fields.get(path);
  if (!types) {
    if (shape.fields.size >= MAX_FIELD_PATHS) {
      shape.truncated = true;
      return;
    }
    types = new Set();
    shape.fields.set(path, types);
  }
  const type = jsonTypeOf(value);
  types.add(type);
  if (type === "string" && enumPaths.has(path)) {
    const seen = shape.values.get(path) ?? new Set<string>();
    seen.add(value as string);
    shape.values.set(path, seen);
  }
  if (depth >= MAX_DEPTH) return;
  if (type === "array")
    for (const item of value as unknown[]) walk(item, childPath(path, null), depth + 1, shape, enumPaths);
  else if (type === "object")
    for (const [key, child] of Object.entries(value as Record<string, unknown>))
      walk(child, childPath(path, key), depth + 1, shape, enumPaths);
}
