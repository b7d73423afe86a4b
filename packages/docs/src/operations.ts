// The operations of the description being rendered, as the site needs them: the spec model's
// operations (read by `buildModel`, in the order the description lists them) plus what the model
// leaves out and the pages show, reached through each operation's node (`op.pointer`).
import {
  buildModel,
  type JsonObject,
  modelOf,
  type OperationModel,
  operationTokenScheme,
  type ParameterModel,
  resolvePointer,
  resolveRef,
  type TokenScheme,
  usesScheme,
} from "@platform-api/spec";

export type Json = JsonObject;

export interface Operation extends OperationModel {
  /** The operation's node in the description, where the reference's samples are added. */
  node: Json;
  /** The first example of the JSON request body, when the description has one. */
  bodyExample: unknown;
  /** Whether the operation takes a JSON request body. */
  hasBody: boolean;
  /** Whether the operation is authenticated with the reseller admin-portal token. */
  reseller: boolean;
  /** Whether a success answer has a JSON body. */
  answersJson: boolean;
}

const JSON_MEDIA = "application/json";

export function listOperations(doc: Json): Operation[] {
  return buildModel(doc).operations.map((op) => {
    const node = resolvePointer<Json>(doc, op.pointer);
    if (!isObject(node)) throw new Error(`${op.key}: nothing at ${op.pointer} in the description.`);
    const hasBody = op.requestBody?.content.some((m) => m.contentType === JSON_MEDIA) ?? false;
    return {
      ...op,
      node,
      bodyExample: hasBody ? firstExample(doc, resolveRef<Json>(doc, node.requestBody)) : undefined,
      hasBody,
      reseller: usesScheme(op, "ResellerAPIKey"),
      answersJson: op.responses.some(
        (r) => r.status.startsWith("2") && r.content.some((m) => m.contentType === JSON_MEDIA),
      ),
    };
  });
}

/**
 * How an operation's token is sent: its security scheme's header and the prefix the scheme's
 * description shows, read by the spec model (built once per description: every page asks; the
 * build adds samples and notes to the operations, never to the security schemes read here).
 */
export const tokenSchemeOf = (doc: Json, op: Pick<OperationModel, "key" | "security">): TokenScheme =>
  operationTokenScheme(modelOf(doc), op);

function firstExample(doc: Json, body: Json | undefined): unknown {
  const content = isObject(body?.content) ? body.content : {};
  const media = resolveRef<Json>(doc, content[JSON_MEDIA]);
  if (!media) return undefined;
  if (media.example !== undefined) return media.example;
  const examples = Object.values(isObject(media.examples) ? media.examples : {});
  const first = examples.length > 0 ? resolveRef<Json>(doc, examples[0]) : undefined;
  return first?.value;
}

/** An illustrative value for a parameter: its own example, its schema's, else one of its type. */
export function exampleValue(doc: Json, parameter: ParameterModel): unknown {
  if (parameter.example !== undefined) return parameter.example;
  // The model keeps a schema's bounds and enum but not its examples: read those from the schema.
  const schema = resolvePointer<Json>(doc, parameter.schemaPointer) ?? {};
  if (schema.example !== undefined) return schema.example;
  if (Array.isArray(schema.examples) && schema.examples.length > 0) return schema.examples[0];
  if (parameter.enum && parameter.enum.length > 0) return parameter.enum[0];
  if (parameter.default !== undefined) return parameter.default;
  if (parameter.format === "uuid") return "00000000-0000-4000-8000-000000000000";
  if (parameter.type === "integer" || parameter.type === "number") return 1;
  if (parameter.type === "boolean") return true;
  return parameter.name;
}

export function isObject(value: unknown): value is Json {
  return value !== null && typeof value === "object" && !Array.isArray(value);
}
