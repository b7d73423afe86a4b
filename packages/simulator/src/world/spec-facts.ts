// What the world reads from the description instead of listing it again: the regional quota names
// and GPU models (from the virtual GPU quota check's result fields), the values of the spec's
// enums, the keys of a task's `created_resources` and the AI task list's ordering keys. Each reads
// the description it is given, so a simulator started on another description follows it.

import {
  modelOf,
  operationById,
  pointer,
  requireParameter,
  resolvePointer,
  taskPollingOf,
} from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import type { AiTaskOrderingField, GpuModel, RegionalQuotaName } from "./types.js";

type Schemas = components["schemas"];
type SchemaNode = { [keyword: string]: unknown };

/** The component schemas that are an enum of strings ("AiTaskStatus", "TaskState", …). */
export type EnumSchemaName = {
  [N in keyof Schemas]: Schemas[N] extends string ? (string extends Schemas[N] ? never : N) : never;
}[keyof Schemas];

export function componentSchema(doc: object, name: keyof Schemas): SchemaNode {
  const schema = resolvePointer<SchemaNode>(doc, pointer("components", "schemas", name));
  if (!schema || typeof schema !== "object")
    throw new Error(`The description has no component schema ${name}.`);
  return schema;
}

/** The values of one of the spec's enum schemas, in the spec's order. */
export function enumOf<N extends EnumSchemaName>(doc: object, name: N): Schemas[N][] {
  const values = componentSchema(doc, name).enum;
  if (!Array.isArray(values) || values.length === 0 || !values.every((v) => typeof v === "string"))
    throw new Error(`The description's ${name} schema lists no enum of strings.`);
  return values as Schemas[N][];
}

/** The quotas of the virtual GPU quota check: each result field name without `_limit`, `_requested`, `_usage`. */
export function regionalQuotaNames(doc: object): RegionalQuotaName[] {
  const properties = componentSchema(doc, "VirtualGpuQuotaCheckResult").properties;
  const fields = Object.keys(properties && typeof properties === "object" ? properties : {});
  const names = fields
    .filter((f) => f.endsWith("_requested"))
    .map((f) => f.slice(0, -"_requested".length))
    .filter((name) => fields.includes(`${name}_limit`) && fields.includes(`${name}_usage`));
  if (names.length === 0)
    throw new Error(
      "The description's VirtualGpuQuotaCheckResult has no <quota>_limit/_requested/_usage fields.",
    );
  return names as RegionalQuotaName[];
}

const GPU_QUOTA = /^gpu_virtual_(.+)_count$/;

/** The GPU models that have a virtual GPU quota, in the spec's order. */
export function gpuModels(doc: object): GpuModel[] {
  return regionalQuotaNames(doc).flatMap((name) => {
    const model = GPU_QUOTA.exec(name)?.[1];
    return model === undefined ? [] : [model as GpuModel];
  });
}

/** The quota name of a GPU model's virtual GPU cards. */
export const gpuQuotaName = (model: GpuModel): RegionalQuotaName =>
  `gpu_virtual_${model}_count` as RegionalQuotaName;

type CreatedResources = NonNullable<Schemas["Task"]["created_resources"]>;

/** A finished task's `created_resources` with every key of the spec and nothing created. */
export function noCreatedResources(doc: object): CreatedResources {
  const keys = taskPollingOf(modelOf(doc)).createdResourcesKeys;
  return Object.fromEntries(keys.map((key) => [key, []])) as unknown as CreatedResources;
}

/** The AI task list's ordering keys that are not fields of an AI task (`started_at`): the world keeps them. */
export function aiTaskOrderingFields(doc: object): AiTaskOrderingField[] {
  const ordering = requireParameter(operationById(modelOf(doc), "listAiTasks"), "ordering", "query");
  const taskFields = componentSchema(doc, "AiTask").properties;
  const own = Object.keys(taskFields && typeof taskFields === "object" ? taskFields : {});
  return (ordering.enum ?? []).map(String).filter((key) => !own.includes(key)) as AiTaskOrderingField[];
}
