import { createSpecAjv } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import { ApiError, badRequest, notFound } from "../errors.js";
import type { Store } from "../store.js";
import { quote } from "../validation-message.js";
import type { Draft, OwnedRecord } from "../world/types.js";
import type { Handler } from "./types.js";

type ProfileTemplate = components["schemas"]["ProfileTemplate"];
type ProfileField = components["schemas"]["ProfileField"];

// Field values are checked against each template field's own validation_schema (no description
// needed: the schema is the field's).
const fieldAjv = createSpecAjv(undefined);

export const getProtectionProfile: Handler<"getProtectionProfile"> = ({ params, caller, store }) => ({
  status: 200,
  body: profileOf(store, caller.clientId, params.id).record,
});

/**
 * Applies new settings. The seed leaves open which fields are updatable and which keys of a
 * `fields` item are required; the simulator needs `base_field` to know which field a value is for,
 * takes `field_value` or else `value`, and checks it against the field's validation_schema.
 */
export const updateProtectionProfile: Handler<"updateProtectionProfile"> = ({
  params,
  body,
  caller,
  store,
}) => {
  const profile = profileOf(store, caller.clientId, params.id).record;
  let template: ProfileTemplate = profile.profile_template;
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
  // The seed's one template rule: the Universal template protects an IP address it must be given.
  if (template.name === "Universal" && (body.ip_address === undefined || body.ip_address === null)) {
    throw badRequest('Body field "ip_address" is required for the Universal template.');
  }

  const templateFields = template.fields ?? [];
  const current = new Map(profile.fields.map((f) => [f.base_field, f]));
  const given = new Map<number | undefined, { value: string; field_value: unknown }>();
  body.fields.forEach((item, i) => {
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
    given.set(item.base_field, {
      value: typeof item.value === "string" ? item.value : String(fieldValue),
      field_value: fieldValue,
    });
  });

  profile.profile_template = template;
  const drafts = templateFields.map((f, i): Draft<ProfileField> => {
    const kept = current.get(f.id);
    const next = given.get(f.id);
    const { id: _, field_type, validation_schema, ...definition } = f;
    return {
      ...definition,
      ...(isObject(validation_schema) ? { validation_schema } : {}),
      // A template field's type is open in the spec; a profile field's is a string.
      ...(typeof field_type === "string" ? { field_type } : {}),
      id: kept?.id ?? profile.id * 10 + i,
      value: next?.value ?? kept?.value ?? f.default,
      field_value: next?.field_value ?? kept?.field_value ?? parseValue(f.default, field_type),
      base_field: f.id,
    };
  });
  // A template field may leave out what a profile field requires: the schema fills it.
  profile.fields = drafts.map((draft) => store.complete("ProfileField", draft));
  if (body.ip_address !== undefined && body.ip_address !== null) profile.ip_address = body.ip_address;
  if (body.provider !== undefined) profile.provider = body.provider;
  if (body.site !== undefined) profile.site = body.site;
  if (body.management_type !== undefined) profile.management_type = body.management_type;
  return { status: 200, body: profile };
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

const isObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === "object" && !Array.isArray(value);
