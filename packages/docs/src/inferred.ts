// The description requires some fields only because the platform's documentation lists them
// (`x-inferred-required`); Redoc shows them as required like any other, so each one's description
// says that its presence is the description's inference, not the documentation's statement.
import { noteInferredRequired } from "@platform-api/spec";
import type { Json } from "./operations.js";

export const INFERRED_REQUIRED_NOTE =
  "**Required here by inference:** the platform's documentation lists this field without saying it is always present.";

/** A copy of the description with the note at the end of every inferred field's description. */
export const markInferredRequired = (doc: Json): Json => noteInferredRequired(doc, INFERRED_REQUIRED_NOTE);
