// The description the simulator serves and its model. Both come from the document it is given (the
// `spec` option, a changed description in tests) or else the bundled one — never from the generated
// MODEL — so a changed description changes the simulator with no code change.

import { type JsonObject, loadBundle, modelOf, type SpecModel } from "@platform-api/spec";

/** An OpenAPI description, as read from JSON. */
export type OpenApiDocument = JsonObject;

export interface ServedSpec {
  readonly doc: OpenApiDocument;
  readonly model: SpecModel;
}

let bundled: OpenApiDocument | undefined;

/**
 * The bundled description is read once per process: what is built from a description (its model,
 * its compiled schemas) is kept per document, and nothing the simulator does writes to it.
 */
function bundledSpec(): OpenApiDocument {
  if (!bundled) bundled = loadBundle();
  return bundled;
}

export function serveSpec(doc: OpenApiDocument = bundledSpec()): ServedSpec {
  return { doc, model: modelOf(doc) };
}
