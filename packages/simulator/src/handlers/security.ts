import { Ajv2020 } from "ajv/dist/2020.js";
import { ApiError, badRequest, notFound } from "../errors.js";
import type { Store } from "../store.js";
import { quote } from "../validation-message.js";
import type { JsonObject, OwnedRecord } from "../world/types.js";
import { type Handler, ok } from "./types.js";

// Field values are checked against each template field's own validation_schema.
const fieldAjv = new Ajv2020({ strict: false, allErrors: true });

export const getProtectionProfile: Handler = ({ params, caller, store }) =>
  ok(profileOf(store, caller.clientId, params.id).record);

/**
 * Applies new settings. The seed leaves open which fields are updatable and which keys of a
 * `fields` item are required; the simulator needs `base_field` to know which field a value is for,
 * takes `field_value` or else `value`, and checks it against the field's validation_schema.
 */
export const updateProtectionProfile: Handler = ({ params, body, caller, store }) => {
  const owned = profileOf(store, caller.clientId, params.id);
  const profile = owned.record;
  let template = profile.profile_template as JsonObject;
  if (body.profile_template !== undefined && body.profile_template !== null) {
    const found = store.world.protection_profile_templates.find((t) => t.id === body.profile_template);
    if (!found) {
      const known = store.world.protection_profile_templates.map((t) => `${t.id} (${t.name})`).join(", ");
      throw badRequest(
        `Body field "profile_template" is ${body.profile_template}, which is not a template; templates: ${known}.`,
      );
    }
    template = found;
  }
  if (template.name === "Universal" && (body.ip_address === undefined || body.ip_address === null)) {
    throw badRequest('Body field "ip_address" is required for the Universal template.');
  }

  const templateFields = template.fields as JsonObject[];
  const current = new Map((profile.fields as JsonObject[]).map((f) => [f.base_field, f]));
  const given = new Map<number, { value: string; field_value: unknown }>();
  (body.fields as JsonObject[]).forEach((item, i) => {
    const where = `Body field "fields[${i}]`;
    const templateField = templateFields.find((f) => f.id === item.base_field);
    if (!templateField) {
      const known = templateFields.map((f) => `${f.id} (${f.name})`).join(", ");
      throw badRequest(
        `${where}.base_field" must name a field of template ${template.id}: ${known} (got ${quote(item.base_field)}).`,
      );
    }
    const fieldValue =
      item.field_value !== undefined ? item.field_value : parseValue(item.value, templateField.field_type);
    if (fieldValue === undefined) throw badRequest(`${where}" needs "field_value" or "value".`);
    const schema = templateField.validation_schema;
    if (schema && typeof schema === "object" && !fieldAjv.validate(schema, fieldValue)) {
      throw badRequest(
        `${where}" (${templateField.name}) value ${quote(fieldValue)} ${fieldAjv.errorsText(fieldAjv.errors, { dataVar: "" }).trim()}.`,
      );
    }
    given.set(item.base_field as number, {
      value: typeof item.value === "string" ? item.value : String(fieldValue),
      field_value: fieldValue as never,
    });
  });

  profile.profile_template = template;
  profile.fields = templateFields.map((f, i) => {
    const kept = current.get(f.id);
    const next = given.get(f.id as number);
    const { id: _, ...definition } = f;
    return {
      ...definition,
      id: (kept?.id as number | undefined) ?? (profile.id as number) * 10 + i,
      value: next?.value ?? (kept?.value as string | undefined) ?? (f.default as string),
      field_value: (next?.field_value ?? kept?.field_value ?? parseValue(f.default, f.field_type)) as never,
      base_field: f.id as number,
    };
  });
  for (const key of ["ip_address", "provider", "site", "management_type"] as const) {
    if (body[key] !== undefined && body[key] !== null) profile[key] = body[key];
  }
  return ok(profile);
};

function profileOf(store: Store, clientId: number | undefined, id: number): OwnedRecord {
  const owned = store.world.protection_profiles.find((p) => p.record.id === id);
  if (!owned) throw notFound(`Protection profile ${id}`);
  if (owned.client_id !== clientId) throw new ApiError(404, `Protection profile ${id} does not exist.`);
  return owned;
}

function parseValue(value: unknown, fieldType: unknown): unknown {
  if (typeof value !== "string") return undefined;
  if (fieldType === "int") return /^-?\d+$/.test(value) ? Number(value) : value;
  return value;
}
