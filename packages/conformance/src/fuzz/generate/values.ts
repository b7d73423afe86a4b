// Values a parameter or body field is tried with, read from its facts in the spec model (type,
// format, bounds, enum, default, example): its bounds and one past each, every enum value and one
// outside, the formats' edge cases, unusual strings. Whether each is allowed is not decided here
// (src/fuzz/classify.ts reads that from the spec): generation is kept apart from judging.

import type { ValueFacts } from "@platform-api/spec";

/** Text no form field expects: letters beyond ASCII, a right-to-left script, an emoji, a combining mark. */
export const UNUSUAL_TEXT = "Zürich – 東京 – مرحبا – 🙂 – é";
/** Characters that mean something in a URL or a shell, sent as data. */
export const URL_PUNCTUATION = "a&b=c#d%20e+f/g?h'i\"j<k>";
/** A long value: longer than any name a form takes, short enough for any URL a server reads. */
export const LONG_TEXT = "x".repeat(1000);
/**
 * The longest query fuzz sends, encoded: what every HTTP server and proxy in front of one reads
 * (nginx's default buffer for a request line is 8 KB). Past it a 414 from a proxy would be no
 * answer of the API's, and the spec bounds no string to say a request that long is wrong.
 */
export const MAX_QUERY_LENGTH = 4096;
/** Date-times in UTC, with a zone offset and fractions, without any offset, and a date alone. */
export const DATE_TIMES = [
  "2026-11-21T14:03:58Z",
  "2026-11-21T14:03:58.123+02:00",
  "2026-11-21T14:03:58",
  "2026-11-21",
];
/** Past the 32-bit integers many servers parse into. */
export const BEYOND_INT32 = 2 ** 31;
/** A very large offset or page: far past any list. */
export const VERY_LARGE = 10 ** 9;

const typesOf = (facts: ValueFacts): string[] =>
  Array.isArray(facts.type) ? [...facts.type] : facts.type === undefined ? [] : [facts.type as string];

/** Wire values (strings, as a query carries them) to try for one value of these facts. */
export function coverageValues(facts: ValueFacts, uuid: string): string[] {
  const out: unknown[] = [];
  const types = typesOf(facts);
  if (facts.default !== undefined) out.push(facts.default);
  if (Array.isArray(facts.enum) && facts.enum.length > 0) {
    out.push(...facts.enum);
    const first = String(facts.enum[0]);
    // One outside the enum, and one differing only in case (an enum is matched exactly).
    out.push(`${first}_not_listed`);
    if (first.toLowerCase() !== first) out.push(first.toLowerCase());
    else if (first.toUpperCase() !== first) out.push(first.toUpperCase());
    out.push("");
  } else if (types.includes("integer") || types.includes("number")) {
    const { minimum, maximum } = facts;
    if (minimum !== undefined) out.push(minimum, minimum - 1);
    if (maximum !== undefined) out.push(maximum, maximum + 1);
    out.push(0, 1, -1, BEYOND_INT32, VERY_LARGE, "1.5", "abc", "");
  } else if (types.includes("boolean")) {
    out.push(true, false, "yes");
  } else if (facts.format === "uuid") {
    out.push(uuid, uuid.toUpperCase(), "not-a-uuid", "");
  } else if (facts.format === "date-time" || facts.format === "date") {
    out.push(...DATE_TIMES, "not-a-date", "");
  } else if (types.includes("string") || types.length === 0) {
    // A free string may hold a date the spec shows as its example (the AI tasks' date_created):
    // with and without a zone offset too.
    out.push("a", "", UNUSUAL_TEXT, URL_PUNCTUATION, LONG_TEXT, ...DATE_TIMES);
  }
  return [...new Set(out.map(String))];
}

/** JSON values to try for one body field of these facts: right and wrong types, bounds, enum values. */
export function bodyValues(facts: ValueFacts): unknown[] {
  const types = typesOf(facts);
  const out: unknown[] = [];
  if (Array.isArray(facts.enum) && facts.enum.length > 0)
    out.push(...facts.enum, `${String(facts.enum[0])}_not_listed`);
  else if (types.includes("integer") || types.includes("number"))
    out.push(...[facts.minimum, facts.maximum].filter((v) => v !== undefined), 0, -1, BEYOND_INT32, 1.5, "1");
  else if (types.includes("string")) out.push("", UNUSUAL_TEXT, LONG_TEXT, 1);
  else if (types.includes("boolean")) out.push(true, "true");
  else if (types.includes("array")) out.push([], "not-an-array");
  else if (types.includes("object")) out.push({}, "not-an-object");
  if (types.includes("null")) out.push(null);
  return out;
}
