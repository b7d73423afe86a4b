// The description the suite judges against, read once per process: the seed's bundle, its model
// (every fact the scenarios use: operations, bounds, defaults, enums, the platform's conventions) and
// the spec package's one validator. Schema details the model leaves out are read here, by pointer.
// The seed's word is what a `must` holds a server to; the merged bundle (the seed plus what the
// platform's published descriptions state where the seed is silent) is judged at `should` only.

import {
  createSpecAjv,
  createSpecValidator,
  findOperation,
  type InferredRequiredMode,
  type JsonObject,
  loadBundle,
  loadModel,
  type OperationModel,
  operationById,
  requireParameter,
  resolvePointer,
  resolveRef,
  type SpecModel,
  type SpecValidator,
} from "@platform-api/spec";

/**
 * How the spec's inferences are read: `x-inferred-required` lists the fields a schema requires by
 * the spec's own inference, not by the seed. "optional" judges what the seed states (a `must`),
 * "required" what the spec infers and what only the platform's published descriptions state (the
 * merged bundle: their fields, types and required names), a `should`.
 */
export type Inferred = InferredRequiredMode;

interface Spec {
  doc: JsonObject;
  /** The merged bundle: the seed plus the platform's published facts, judged at should. */
  merged: JsonObject;
  model: SpecModel;
  validators: Record<Inferred, SpecValidator>;
}

let loaded: Spec | undefined;

function spec(): Spec {
  if (!loaded) {
    const doc = loadBundle(undefined, { seed: true });
    const model = loadModel(undefined, { seed: true });
    const merged = loadBundle();
    // One Ajv for both: each new one compiles the meta-schema again, in every run's worker.
    const ajv = createSpecAjv(undefined);
    loaded = {
      doc,
      merged,
      model,
      validators: {
        optional: createSpecValidator(doc, model, { inferred: "optional", ajv }),
        required: createSpecValidator(merged, loadModel(), { inferred: "required", ajv }),
      },
    };
  }
  return loaded;
}

export const specModel = (): SpecModel => spec().model;
/** The validator of what the seed states (the spec's inferred-required fields optional). */
export const specValidator = (inferred: Inferred = "optional"): SpecValidator => spec().validators[inferred];

/**
 * Whether an operation's answers can break the should-level description without breaking the seed:
 * a schema they may carry lists inferred-required fields (`x-inferred-required`), or the platform's
 * published facts add to it (`x-platform-source`, in the merged bundle).
 */
export function answersCarryInferences(operation: OperationModel): boolean {
  // Asked for every exchange the traffic judge sees: walked once per operation.
  const known = carriesInferences.get(operation);
  if (known !== undefined) return known;
  const carries = walkForInferences(operation);
  carriesInferences.set(operation, carries);
  return carries;
}

const carriesInferences = new WeakMap<OperationModel, boolean>();

function walkForInferences(operation: OperationModel): boolean {
  const { merged } = spec();
  const seen = new Set<unknown>();
  const visit = (node: unknown): boolean => {
    const resolved = resolveRef<unknown>(merged, node);
    if (typeof resolved !== "object" || resolved === null || seen.has(resolved)) return false;
    seen.add(resolved);
    if (!Array.isArray(resolved)) {
      const object = resolved as JsonObject;
      if (Array.isArray(object["x-inferred-required"]) || object["x-platform-source"] !== undefined)
        return true;
    }
    return Object.values(resolved).some(visit);
  };
  // The operation's answers in the merged bundle: the same pointer, statuses the platform adds included.
  return visit(resolvePointer(merged, `${operation.pointer}/responses`));
}

/** The operation at a method and path template; the spec lacking it is an error. */
export function operationAt(method: string, path: string): OperationModel {
  const found = findOperation(specModel(), method, path);
  if (!found) throw new Error(`The spec has no ${method.toUpperCase()} ${path}.`);
  return found;
}

/**
 * The schema node at a pointer, then down through `segments` ("properties", "state"), following
 * every `$ref` on the way; undefined when the description has no such node.
 */
export function schemaAt(schemaPointer: string, ...segments: string[]): JsonObject | undefined {
  const { doc } = spec();
  let node = resolveRef<JsonObject>(doc, resolvePointer(doc, schemaPointer));
  for (const segment of segments) {
    if (!node) return undefined;
    node = resolveRef<JsonObject>(doc, node[segment]);
  }
  return node;
}

/** The JSON schema pointer of the operation's first documented success (2xx) answer. */
export function successSchemaPointer(operation: OperationModel): string {
  const found = operation.responses
    .filter((r) => r.status.startsWith("2"))
    .flatMap((r) => r.content)
    .find((m) => m.contentType === "application/json" && m.schemaPointer);
  if (!found?.schemaPointer)
    throw new Error(`${operation.operationId} documents no JSON body for a success answer.`);
  return found.schemaPointer;
}

/** The JSON schema pointer of the operation's request body. */
export function requestSchemaPointer(operation: OperationModel): string {
  const found = operation.requestBody?.content.find((m) => m.contentType === "application/json");
  if (!found?.schemaPointer) throw new Error(`${operation.operationId} documents no JSON request body.`);
  return found.schemaPointer;
}

/** The value of the first example the spec gives of the operation's JSON request body. */
export function requestExample(operation: OperationModel): JsonObject | undefined {
  const examples = schemaAt(operation.pointer, "requestBody", "content", "application/json", "examples");
  const [first] = Object.keys(examples ?? {});
  return first === undefined
    ? undefined
    : schemaAt(operation.pointer, "requestBody", "content", "application/json", "examples", first, "value");
}

/** The string values a schema node lists: its `enum`, else its `examples` (what the spec shows). */
export function valuesOf(node: JsonObject | undefined): string[] {
  const values = Array.isArray(node?.enum) ? node.enum : Array.isArray(node?.examples) ? node.examples : [];
  return values.filter((v): v is string => typeof v === "string");
}

/** The `required` property names of a schema node. */
export function requiredOf(node: JsonObject | undefined): string[] {
  return Array.isArray(node?.required) ? node.required.filter((v): v is string => typeof v === "string") : [];
}

/**
 * Narrows values read from the model to the generated type of the same schema (they come from one
 * description, so they agree; the type is what makes a call with them compile).
 */
export const asSpecValues = <T extends string | number>(values: readonly unknown[]): T[] =>
  values.filter((v): v is T => typeof v === "string" || typeof v === "number");

/** The values the spec lists for a query parameter of an operation (its enum, or its items'). */
export function queryValues<T extends string>(operationId: string, name: string): T[] {
  const parameter = requireParameter(operationById(specModel(), operationId), name, "query");
  return asSpecValues<T>(parameter.enum ?? parameter.items?.enum ?? []);
}

/** The values the spec lists for a property of an operation's request body. */
export function bodyValues<T extends string>(operationId: string, property: string): T[] {
  const operation = operationById(specModel(), operationId);
  return asSpecValues<T>(valuesOf(schemaAt(requestSchemaPointer(operation), "properties", property)));
}

/** The first of the values the spec lists; the spec listing none is an error in the spec. */
export function firstOf<T>(values: readonly T[], what: string): T {
  const [first] = values;
  if (first === undefined) throw new Error(`The spec lists no ${what}.`);
  return first;
}
