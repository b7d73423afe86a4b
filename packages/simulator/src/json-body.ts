// Request bodies: JSON only, within LIMITS.bodyBytes, then one iterative walk that refuses what
// the simulator cannot handle safely — nesting that would exhaust the stack when the value is read
// back or quoted, strings it would store whole, numbers it cannot count exactly, a `__proto__`
// field that could change an object's prototype when merged — naming the field. Every other
// content type is a 400 that says to send JSON.

import type { FastifyInstance } from "fastify";
import { badRequest } from "./errors.js";
import { LIMITS, SAFE_INTEGER } from "./limits.js";
import { fieldPath, quote } from "./validation-message.js";

/**
 * In `app`'s context. `emptyBody`: an empty body is no body (the admin surface, whose bodyless
 * POSTs carry Content-Type: application/json); else it is not valid JSON.
 */
export function registerJsonBodyParser(app: FastifyInstance, { emptyBody = false } = {}): void {
  app.removeAllContentTypeParsers();
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit: LIMITS.bodyBytes },
    (_request, text, done) => {
      if (emptyBody && String(text).trim() === "") return done(null, undefined);
      let body: unknown;
      try {
        body = JSON.parse(String(text));
      } catch (error) {
        return done(
          badRequest(`The request body has errors: it is not valid JSON (${(error as Error).message}).`),
          undefined,
        );
      }
      const problem = boundsProblem(body);
      return problem ? done(badRequest(problem), undefined) : done(null, body);
    },
  );
}

/** Fastify's refusal of a body whose content type has no parser, as the platform's 400. */
export function unsupportedMediaType(contentType: string | undefined): string {
  return `The request body must be JSON, sent with Content-Type: application/json (got ${contentType ? quote(contentType) : "no Content-Type"}).`;
}

/** The first thing in a parsed body beyond the simulator's limits, as a sentence; else undefined. */
export function boundsProblem(body: unknown): string | undefined {
  const stack: { value: unknown; path: string[] }[] = [{ value: body, path: [] }];
  while (stack.length > 0) {
    const { value, path } = stack.pop() as (typeof stack)[number];
    const where = path.length === 0 ? "The request body" : `Body field "${shortPath(path)}"`;
    if (typeof value === "string" && value.length > LIMITS.stringLength)
      return `${where} is ${value.length} characters long; the simulator accepts at most ${LIMITS.stringLength}.`;
    if (typeof value === "number" && Math.abs(value) > SAFE_INTEGER)
      return `${where} is ${value}, beyond the numbers the simulator counts exactly (from -${SAFE_INTEGER} to ${SAFE_INTEGER}).`;
    if (value === null || typeof value !== "object") continue;
    if (path.length >= LIMITS.bodyDepth)
      return `${where} nests objects or arrays deeper than ${LIMITS.bodyDepth} levels, the most the simulator accepts.`;
    if (Array.isArray(value)) {
      for (const [i, item] of value.entries()) stack.push({ value: item, path: [...path, String(i)] });
      continue;
    }
    for (const [key, item] of Object.entries(value)) {
      if (key === "__proto__")
        return `${where} has a field named "__proto__", which the simulator refuses (merged, it would change an object's prototype).`;
      if (key.length > LIMITS.stringLength)
        return `${where} has a field name ${key.length} characters long; the simulator accepts at most ${LIMITS.stringLength}.`;
      stack.push({ value: item, path: [...path, key] });
    }
  }
  return undefined;
}

/** A field's path, its first segments only when it is deep: a message names, it does not dump. */
function shortPath(path: string[]): string {
  const shown = 6;
  return path.length > shown ? `${fieldPath(path.slice(0, shown))}…` : fieldPath(path);
}
