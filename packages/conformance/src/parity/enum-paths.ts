// Where an operation's answer holds strings the spec types with an enum: the only values parity
// compares (src/parity/shape.ts). Read from the answer's schema in the description, in the field
// path notation of shapes ("regions[].state").

import { type OperationModel, responseFor } from "@platform-api/spec";
import { schemaAt } from "../facts/spec.js";
import { childPath, ROOT } from "./shape.js";

/** Composition keywords whose branches describe the same value. */
const BRANCHES = ["allOf", "anyOf", "oneOf"] as const;
/** A recursive schema (a tree of nodes) is read this deep; no answer's enums sit deeper. */
const MAX_DEPTH = 16;

const cache = new Map<string, ReadonlySet<string>>();

/** The enum paths of the answer the operation documents for `status` in `mediaType` (JSON if none). */
export function enumPathsOf(
  operation: OperationModel,
  status: number | null,
  mediaType: string | null,
): ReadonlySet<string> {
  if (status === null) return new Set();
  const response = responseFor(operation, status);
  const media =
    response?.content.find((m) => m.contentType === mediaType) ??
    response?.content.find((m) => m.contentType === "application/json");
  const pointer = media?.schemaPointer;
  if (pointer === undefined) return new Set();
  let paths = cache.get(pointer);
  if (!paths) {
    const found = new Set<string>();
    walk(pointer, [], ROOT, 0, found);
    paths = found;
    cache.set(pointer, paths);
  }
  return paths;
}

function walk(pointer: string, segments: string[], path: string, depth: number, out: Set<string>): void {
  if (depth > MAX_DEPTH) return;
  const node = schemaAt(pointer, ...segments);
  if (!node) return;
  if (Array.isArray(node.enum) && node.enum.some((v) => typeof v === "string")) out.add(path);
  for (const keyword of BRANCHES)
    if (Array.isArray(node[keyword]))
      (node[keyword] as unknown[]).forEach((_, i) => {
        walk(pointer, [...segments, keyword, String(i)], path, depth + 1, out);
      });
  if (node.items && typeof node.items === "object")
    walk(pointer, [...segments, "items"], childPath(path, null), depth + 1, out);
  const properties = node.properties;
  if (properties && typeof properties === "object")
    for (const key of Object.keys(properties))
      walk(pointer, [...segments, "properties", key], childPath(path, key), depth + 1, out);
}
