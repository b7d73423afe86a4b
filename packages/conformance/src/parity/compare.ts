// One recorded answer against its replay, shape by shape (src/parity/shape.ts). The recording is
// the reference: it is what the platform answered, and every difference is said from its side
// ("missing in simulator": the platform sent it, the target did not).

import { type AnswerShape, type JsonType, shownPath } from "./shape.js";

export type DifferenceKind =
  | "status"
  | "content-type"
  | "retry-after"
  | "body"
  | "missing"
  | "only"
  | "type"
  | "values";

export interface Difference {
  kind: DifferenceKind;
  /** A field path ("regions[].country"), or the part of the answer: "(status)", "(content-type)". */
  path: string;
  /** What differs, in words: "missing in simulator", "type string vs integer", "status 200 vs 404". */
  what: string;
}

/** What the replayed side is called in the words ("simulator" for the embedded one, else "target"). */
export type SideName = string;

/**
 * The differences between a recorded answer's shape and its replay's; none when they are the same
 * in shape. Bodies are compared only when both statuses agree: a 200's fields against a 404's error
 * body would list every field twice and say nothing the status does not.
 */
export function compareShapes(
  recorded: AnswerShape,
  replayed: AnswerShape,
  side: SideName = "simulator",
): Difference[] {
  const out: Difference[] = [];
  if (recorded.status !== replayed.status) {
    out.push({
      kind: "status",
      path: "(status)",
      what: `status ${recorded.status ?? "no answer"} vs ${replayed.status ?? "no answer"}`,
    });
    return out;
  }
  if (recorded.mediaType !== replayed.mediaType)
    out.push({
      kind: "content-type",
      path: "(content-type)",
      what: `content type ${recorded.mediaType ?? "none"} vs ${replayed.mediaType ?? "none"}`,
    });
  if (recorded.retryAfter !== replayed.retryAfter)
    out.push({
      kind: "retry-after",
      path: "(Retry-After)",
      what: recorded.retryAfter ? `missing in ${side}` : `only in ${side}`,
    });
  // A recording that kept no body says nothing of its fields; neither does one side's text.
  if (recorded.body === "unread" || replayed.body === "unread") return out;
  if (recorded.body !== replayed.body) {
    out.push({ kind: "body", path: "(body)", what: `body ${recorded.body} vs ${replayed.body}` });
    return out;
  }
  if (recorded.body !== "json") return out;
  for (const [path, types] of recorded.fields) {
    const theirs = replayed.fields.get(path);
    if (!theirs) {
      // A field under one that is missing is missing too: only the outermost is said.
      if (!coveredAbsence(path, replayed.fields))
        out.push({ kind: "missing", path: shownPath(path), what: `missing in ${side}` });
      continue;
    }
    if (!sameTypes(types, theirs))
      out.push({
        kind: "type",
        path: shownPath(path),
        what: `type ${typesText(types)} vs ${typesText(theirs)}`,
      });
  }
  for (const path of replayed.fields.keys())
    if (!recorded.fields.has(path) && !coveredAbsence(path, recorded.fields))
      out.push({ kind: "only", path: shownPath(path), what: `only in ${side}` });
  for (const [path, values] of recorded.values) {
    const theirs = replayed.values.get(path);
    if (theirs && !sameSet(values, theirs))
      out.push({
        kind: "values",
        path: shownPath(path),
        what: `values ${setText(values)} vs ${setText(theirs)}`,
      });
  }
  return out;
}

/**
 * Whether a field absent from `other` is no difference of its own: its parent is absent too (the
 * parent's difference says it), or it is the items of an array `other` sent empty: an empty list
 * tells nothing of its items' shape, and which lists hold items is data, not shape.
 */
function coveredAbsence(path: string, other: ReadonlyMap<string, unknown>): boolean {
  const parent = parentOf(path);
  if (parent === undefined) return false;
  if (!other.has(parent)) return true;
  return path.endsWith("[]");
}

function parentOf(path: string): string | undefined {
  if (path === "") return undefined;
  if (path.endsWith("[]")) return path.slice(0, -2);
  const dot = path.lastIndexOf(".");
  const bracket = path.lastIndexOf("[]");
  // "a.b" → "a"; "a[].b" → "a[]"; "b" → "" (the body).
  if (dot < 0) return "";
  return dot > bracket ? path.slice(0, dot) : path.slice(0, bracket + 2);
}

/**
 * Integers are numbers: a server that writes 2.0 where another writes 2.5 sends the same type, and
 * JSON does not tell 2 from 2.0. The types compare as sets (a field null in some items, a string in
 * others is "string|null" on both sides when both send both).
 */
function sameTypes(a: ReadonlySet<JsonType>, b: ReadonlySet<JsonType>): boolean {
  const norm = (s: ReadonlySet<JsonType>) =>
    new Set<string>([...s].map((t) => (t === "integer" ? "number" : t)));
  return sameSet(norm(a), norm(b));
}

function sameSet<T>(a: ReadonlySet<T>, b: ReadonlySet<T>): boolean {
  if (a.size !== b.size) return false;
  for (const x of a) if (!b.has(x)) return false;
  return true;
}

const typesText = (types: ReadonlySet<JsonType>) => [...types].sort().join("|");
const setText = (values: ReadonlySet<string>) => `{${[...values].sort().join(", ")}}`;
