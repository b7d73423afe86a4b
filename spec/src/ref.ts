// JSON pointers and local `$ref`s of the bundled description: the one resolver every package uses.

/** A node of the description, read without a schema of its own. */
export type JsonObject = { [key: string]: unknown };

/** JSON pointer ("#/a/b") from unescaped segments. */
export function pointer(...segments: (string | number)[]): string {
  return `#/${segments.map((s) => String(s).replace(/~/g, "~0").replace(/\//g, "~1")).join("/")}`;
}

/** The node a local pointer ("#/components/schemas/Task") names, or undefined. */
export function resolvePointer<T = JsonObject>(doc: unknown, ref: string): T | undefined {
  if (ref === "#" || ref === "#/") return doc as T;
  if (!ref.startsWith("#/"))
    throw new Error(`Only local references ("#/…") are expected in the bundle, got "${ref}".`);
  let current: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (current === null || typeof current !== "object") return undefined;
    current = (current as JsonObject)[key];
  }
  return current as T | undefined;
}

const MAX_HOPS = 20;

/**
 * Follows local `$ref`s to the node they point at. OpenAPI 3.1 lets a reference carry sibling
 * keywords (a `description` beside the `$ref`); they are kept, the referring node's winning.
 */
export function resolveRef<T = JsonObject>(doc: unknown, node: unknown): T | undefined {
  let current = node;
  let siblings: JsonObject | undefined;
  for (let hops = 0; isRef(current); hops++) {
    if (hops === MAX_HOPS)
      throw new Error(`More than ${MAX_HOPS} chained $refs from ${String(current.$ref)}.`);
    const { $ref, ...rest } = current;
    if (Object.keys(rest).length > 0) siblings = { ...rest, ...siblings };
    current = resolvePointer(doc, $ref);
  }
  if (siblings && current && typeof current === "object")
    return { ...(current as JsonObject), ...siblings } as T;
  return current as T | undefined;
}

function isRef(node: unknown): node is { $ref: string } & JsonObject {
  return node !== null && typeof node === "object" && typeof (node as JsonObject).$ref === "string";
}
