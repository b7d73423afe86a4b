// The shape of a JSON file the suite reads (a HAR entry, a replayed finding, a baseline entry),
// checked by the project's one Ajv set-up: a malformed value is one line naming the field and what
// is allowed, never a TypeError deep in the reading. The lines say what a value is (null, a
// number), never the value: such files may hold a token anywhere.

import { createSpecAjv } from "@platform-api/spec";

type ValidateFunction = ReturnType<ReturnType<typeof createSpecAjv>["compile"]>;
type ErrorObject = NonNullable<ValidateFunction["errors"]>[number];

/**
 * A checker for `schema`, whose `description`s are the "allowed" part of its lines: it answers
 * "<where> is <what>; allowed: <what is>", `where` a path under the value ("" for the value itself,
 * ".request.method"), or undefined when the value fits. Compiled on first use.
 */
export function shapeChecker(schema: object): (value: unknown) => string | undefined {
  let validate: ValidateFunction | undefined;
  return (value) => {
    validate ??= createSpecAjv(undefined, { verbose: true }).compile(schema);
    if (validate(value)) return undefined;
    // The outermost problem first: a request that is not an object says more than its missing url.
    const errors = [...(validate.errors ?? [])].sort(
      (a, b) => a.instancePath.split("/").length - b.instancePath.split("/").length,
    );
    return sentence(errors[0] as ErrorObject);
  };
}

function sentence(error: ErrorObject): string {
  const where = error.instancePath
    .split("/")
    .slice(1)
    .map((part) => (/^\d+$/.test(part) ? `[${part}]` : `.${part.replace(/~1/g, "/").replace(/~0/g, "~")}`))
    .join("");
  const allowed = (error.parentSchema as { description?: string } | undefined)?.description;
  if (error.keyword === "required") {
    const field = (error.params as { missingProperty: string }).missingProperty;
    const schema = error.parentSchema as { properties?: Record<string, { description?: string }> };
    return `${where} has no ${field}; allowed: ${schema.properties?.[field]?.description ?? "a value"}`;
  }
  if (error.keyword === "additionalProperties") {
    const field = (error.params as { additionalProperty: string }).additionalProperty;
    // The name is the file's: shown only when it is a plain word.
    const name = /^[A-Za-z_][A-Za-z0-9_]{0,40}$/.test(field) ? ` "${field}"` : "";
    return `${where} has a field${name} that is not allowed; allowed: ${allowed ?? "the listed fields"}`;
  }
  if (error.keyword === "maxLength" || error.keyword === "maxItems") {
    const limit = (error.params as { limit: number }).limit;
    return `${where} is longer than ${limit} ${error.keyword === "maxLength" ? "characters" : "items"}; allowed: ${allowed ?? error.message}`;
  }
  return `${where} is ${kind(error.data)}; allowed: ${allowed ?? error.message}`;
}

/** What a value is, in words, without the value. */
function kind(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  const type = typeof value;
  return type === "object" ? "an object" : `a${/^[aeiou]/.test(type) ? "n" : ""} ${type}`;
}
