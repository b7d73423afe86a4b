// JSON request bodies, bounded: Fastify's own parser (which refuses __proto__ and constructor
// poisoning) within LIMITS.bodyBytes, then one iterative walk that refuses what the simulator
// cannot handle safely — nesting that would exhaust the stack when the value is read back or
// quoted, strings it would store whole, numbers it cannot count exactly — naming the field.

import type { FastifyInstance } from "fastify";
import { badRequest } from "./errors.js";
import { LIMITS, SAFE_INTEGER } from "./limits.js";
import { fieldPath } from "./validation-message.js";

export function registerJsonBodyParser(app: FastifyInstance): void {
  const parse = app.getDefaultJsonParser("error", "error");
  app.removeContentTypeParser("application/json");
  app.addContentTypeParser(
    "application/json",
    { parseAs: "string", bodyLimit: LIMITS.bodyBytes },
    (request, text, done) => {
      parse(request, String(text), (error: Error | null, body?: unknown) => {
        if (error) return done(error, undefined);
        const problem = boundsProblem(body);
        return problem ? done(badRequest(problem), undefined) : done(null, body);
      });
    },
  );
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
