// Loads the bundled description and resolves local $refs, for the spec tests.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

// biome-ignore lint/suspicious/noExplicitAny: an OpenAPI document is walked generically by pointer.
export type Node = Record<string, any>;

export const bundlePath = fileURLToPath(new URL("../dist/openapi.json", import.meta.url));

export function loadBundle(path = bundlePath): Node {
  return JSON.parse(readFileSync(path, "utf8"));
}

/** Follows a local `$ref`, keeping the referring node's own keywords (OpenAPI 3.1 allows siblings). */
export function deref(doc: Node, node: Node | undefined): Node | undefined {
  let current = node;
  const siblings: Node = {};
  for (let hops = 0; current && typeof current.$ref === "string" && hops < 20; hops++) {
    const { $ref, ...rest } = current;
    Object.assign(siblings, { ...rest, ...siblings });
    if (!$ref.startsWith("#/")) throw new Error(`Only local refs are expected in the bundle, got ${$ref}`);
    current = $ref
      .slice(2)
      .split("/")
      .map((s: string) => s.replace(/~1/g, "/").replace(/~0/g, "~"))
      .reduce((acc: Node | undefined, key: string) => acc?.[key], doc);
  }
  return current ? { ...current, ...siblings } : undefined;
}

export const HTTP_METHODS = ["get", "put", "post", "delete", "patch", "head", "options", "trace"] as const;

export function* operationsOf(
  doc: Node,
): Generator<{ method: string; path: string; pathItem: Node; operation: Node }> {
  for (const [path, pathItem] of Object.entries<Node>(doc.paths ?? {})) {
    for (const method of HTTP_METHODS) {
      if (pathItem[method]) yield { method, path, pathItem, operation: pathItem[method] };
    }
  }
}
