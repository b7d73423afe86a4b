// Three protection profile templates, one of them Universal (the one that needs the protected IP
// address), each with integer fields and their validation schemas.

import type { components } from "@platform-api/spec/generated/openapi";

type ProfileTemplate = components["schemas"]["ProfileTemplate"];
type ProfileTemplateField = components["schemas"]["ProfileTemplateField"];

const CREATED = "2026-03-02T10:15:00Z";

export function protectionProfileTemplates(): ProfileTemplate[] {
  return [
    {
      id: 1,
      name: "Universal",
      description: "Baseline protection for any service; needs the protected IP address",
      fields: [integerField(11, "max_pps", "Packets per second allowed before mitigation", "50000", 1)],
      base_template: 1,
      version: "3f1c2a9e-5b7d-4e21-9c0a-1d2e3f405162",
      created: CREATED,
      allow_merge: true,
    },
    {
      id: 7,
      name: "Game server",
      description: "Protection tuned for UDP game traffic",
      fields: [
        integerField(31, "max_pps", "Packets per second allowed before mitigation", "100000", 1),
        integerField(32, "max_udp_sessions", "Concurrent UDP sessions per source", "64", 1),
      ],
      base_template: 1,
      version: "0b9f1e2d-3c4a-4b5c-8d6e-7f8091a2b3c4",
      created: CREATED,
      allow_merge: false,
    },
    {
      id: 9,
      name: "Web",
      description: "Protection for HTTP(S) services",
      fields: [integerField(41, "max_rps", "HTTP requests per second per source", "200", 1)],
      base_template: 1,
      version: "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b",
      created: CREATED,
      allow_merge: true,
    },
  ];
}

/** `int` is the one field type the seed shows. */
function integerField(
  id: number,
  name: string,
  description: string,
  byDefault: string,
  minimum: number,
): ProfileTemplateField {
  return {
    id,
    name,
    description,
    field_type: "int",
    required: true,
    default: byDefault,
    validation_schema: { type: "integer", minimum },
  };
}
