// The bundled description for the spec tests, and a $ref resolver that keeps sibling keywords.
import { loadBundle as loadFromLib } from "../lib/index.js";

export type Node = Record<string, any>;

/** The whole API's bundle, or one product's. */
export const loadBundle = (product?: Parameters<typeof loadFromLib>[0]): Node => loadFromLib(product) as Node;

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
