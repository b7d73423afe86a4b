// The description as the reference page shows it: the bundled spec plus what Redoc needs to
// render it for people (code samples, visible notes for what is left open and for the fields
// required only by inference).
import { withCodeSamples } from "./code-samples.js";
import { markInferredRequired } from "./inferred.js";
import type { Json, Operation } from "./operations.js";
import { markUnspecified, type UnspecifiedNote } from "./unspecified.js";

export interface ReferenceDocument {
  doc: Json;
  notes: UnspecifiedNote[];
}

export function referenceDocument(bundle: Json): ReferenceDocument {
  const doc = markInferredRequired(withCodeSamples(bundle));
  const notes = markUnspecified(doc);
  return { doc, notes };
}

/** Redoc 2's link to an operation: `tag/<tag>/operation/<operationId>`. */
export function operationAnchor(op: Pick<Operation, "operationId" | "tags">): string {
  const tag = op.tags[0];
  return tag ? `tag/${tagSlug(tag)}/operation/${op.operationId}` : `operation/${op.operationId}`;
}

/** Redoc's slug of a tag name in its links. */
export const tagSlug = (name: string) => name.trim().replace(/\s+/g, "-");

/** Options given to Redoc; one place, so the tests read the same values. */
export const REDOC_OPTIONS = {
  scrollYOffset: ".site-header",
  expandResponses: "200,201",
  requiredPropsFirst: true,
  pathInMiddlePanel: true,
  hideDownloadButton: false,
  downloadFileName: "openapi.json",
  jsonSampleExpandLevel: 3,
  theme: {
    colors: { primary: { main: "#2450c8" } },
    typography: {
      fontSize: "15px",
      fontFamily:
        'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif',
      headings: {
        fontFamily:
          'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif',
        fontWeight: "600",
      },
      code: { fontFamily: 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace' },
    },
    sidebar: { width: "280px", backgroundColor: "#f6f8fb" },
    rightPanel: { backgroundColor: "#172033", width: "42%" },
  },
};
