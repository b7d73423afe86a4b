// Three protection profiles of the default client, one on each template, every field at its
// template's default.

import type { components } from "@platform-api/spec/generated/openapi";
import type { Draft, OwnedRecord } from "../types.js";
import { DEFAULT_CLIENT_ID } from "./clients.js";

type ProfileTemplate = components["schemas"]["ProfileTemplate"];
type ProtectionProfile = components["schemas"]["ProtectionProfile"];
type ProfileField = components["schemas"]["ProfileField"];

/** A profile whose fields are the template's, completed from the spec's ProfileField when the world loads. */
type ProfileDraft = Omit<ProtectionProfile, "fields"> & { fields: Draft<ProfileField>[] };

export function protectionProfiles(templates: ProfileTemplate[]): OwnedRecord<ProfileDraft>[] {
  const [universal, gameServer, web] = templates as [ProfileTemplate, ProfileTemplate, ProfileTemplate];
  return [
    profile(4211, gameServer, "203.0.113.10", "ED", "standard"),
    profile(4212, universal, "203.0.113.11", "ED", "standard"),
    profile(4213, web, "198.51.100.7", "SG", "advanced"),
  ];
}

function profile(
  id: number,
  template: ProfileTemplate,
  ip_address: string,
  site: string,
  plan: string,
): OwnedRecord<ProfileDraft> {
  return {
    client_id: DEFAULT_CLIENT_ID,
    record: {
      id,
      profile_template: template,
      ip_address,
      // A template field's type is open in the spec (a profile field's is a string).
      fields: (template.fields ?? []).map(({ field_type, validation_schema, ...f }, i) => ({
        ...f,
        ...(validation_schema && typeof validation_schema === "object"
          ? { validation_schema: validation_schema as Record<string, unknown> }
          : {}),
        ...(typeof field_type === "string" ? { field_type } : {}),
        id: id * 10 + i,
        value: f.default,
        field_value: Number(f.default),
        base_field: f.id,
      })),
      site,
      options: { bgp: false, active: true, price: "99.00" },
      protocols: [],
      status: {},
      plan,
      provider: "sifter",
      management_type: "static",
    },
  };
}
