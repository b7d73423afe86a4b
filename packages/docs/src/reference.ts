// The description as the reference page shows it: the merged bundle (the seed plus the platform's
// published facts where the seed is silent) plus what Redoc needs to render it for people: code
// samples, a mark on what the platform's documents add and on each field required only by
// inference, visible notes for what is left open, and once per operation what those marks mean.
import { withCodeSamples } from "./code-samples.js";
import { appendBlock } from "./descriptions.js";
import { markInferredRequired } from "./inferred.js";
import { type Json, listOperations, type Operation } from "./operations.js";
import { markPlatformExtensions, markPlatformFacts } from "./platform-facts.js";
import { markUnspecified, type UnspecifiedNote } from "./unspecified.js";

export interface ReferenceDocument {
  doc: Json;
  notes: UnspecifiedNote[];
}

export function referenceDocument(bundle: Json): ReferenceDocument {
  const doc = withCodeSamples(bundle);
  // The marks first, right after each node's own words, before the notes added below them.
  const platform = markPlatformFacts(doc);
  const inferred = markInferredRequired(doc);
  const notes = markUnspecified(doc);
  // An operation's paragraphs close its description, after its own note on what is left open.
  for (const op of listOperations(doc))
    for (const html of [platform.get(op.operationId), inferred.get(op.operationId)])
      if (html) appendBlock(op.node, html);
  // Last, after the note on what the description leaves open, which closes the introduction's
  // section of that name.
  markPlatformExtensions(doc);
  return { doc, notes };
}

/** Redoc 2's link to an operation: `tag/<tag>/operation/<operationId>`. */
export function operationAnchor(op: Pick<Operation, "operationId" | "tags">): string {
  const tag = op.tags[0];
  return tag ? `tag/${tagSlug(tag)}/operation/${op.operationId}` : `operation/${op.operationId}`;
}

/** Redoc's slug of a tag name in its links. */
export const tagSlug = (name: string) => name.trim().replace(/\s+/g, "-");

/**
 * The sections Redoc makes of the introduction's headings, with their links (`section/<slug>`):
 * its slug drops what the `slugify` package drops (a comma, say) and joins words with "-".
 */
export function introductionSections(doc: Json): { title: string; anchor: string }[] {
  const info = doc.info as Json | undefined;
  const description = typeof info?.description === "string" ? info.description : "";
  return [...description.matchAll(/^#{1,2} +(.+?) *$/gm)].map((m) => {
    const title = m[1] ?? "";
    const slug = title
      .replace(/[^\w\s$*_+~.()'"!\-:@]+/g, "")
      .trim()
      .replace(/\s+/g, "-");
    return { title, anchor: `section/${slug}` };
  });
}

const SANS =
  'system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "Liberation Sans", Arial, sans-serif';
const MONO = 'ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", Menlo, Consolas, monospace';

/**
 * Options given to Redoc, but for its theme (REDOC_THEMES); one place, so the tests read the same
 * values. Redoc's own search is off: the site's search box covers the reference and the guides.
 */
export const REDOC_OPTIONS = {
  scrollYOffset: ".site-header",
  expandResponses: "200,201",
  requiredPropsFirst: true,
  pathInMiddlePanel: true,
  hideDownloadButton: false,
  downloadFileName: "openapi.json",
  jsonSampleExpandLevel: 3,
  disableSearch: true,
};

/**
 * Redoc puts the samples beside the operation only from this width on (its `medium` breakpoint,
 * 75rem by default) and under it below: beside, at 1280 px, the panel showed 38 characters of a
 * sample's line. From 105rem (1680 px) a half-width panel shows more than 70; narrower, the samples
 * take the whole width under their operation.
 */
const breakpoints = { small: "50rem", medium: "105rem", large: "105rem" };

const typography = {
  fontSize: "15px",
  fontFamily: SANS,
  headings: { fontFamily: SANS, fontWeight: "600" },
  code: { fontFamily: MONO },
};

/**
 * Redoc's theme for each colour scheme: assets/reference.js picks the site's (the system's
 * `prefers-color-scheme`, or the reader's choice: assets/theme.js) and renders again when that
 * changes. The colours follow site.css.
 */
export const REDOC_THEMES = {
  light: {
    colors: { primary: { main: "#2450c8" } },
    breakpoints,
    typography,
    sidebar: { width: "280px", backgroundColor: "#f6f8fb" },
    rightPanel: { backgroundColor: "#172033", width: "50%" },
  },
  dark: {
    colors: {
      primary: { main: "#7aa2ff" },
      text: { primary: "#e6e9ef", secondary: "#a9b2c3" },
      border: { dark: "#3a4456", light: "#2a3242" },
      gray: { 50: "#161d29", 100: "#1c2433" },
      success: { main: "#4cc38a" },
      warning: { main: "#e0a526" },
      error: { main: "#ff7b72" },
      responses: {
        success: { color: "#6fd39a", backgroundColor: "rgba(76, 195, 138, 0.12)", tabTextColor: "#6fd39a" },
        error: { color: "#ff8a80", backgroundColor: "rgba(255, 123, 114, 0.12)", tabTextColor: "#ff8a80" },
        redirect: { color: "#f0b45b", backgroundColor: "rgba(240, 180, 91, 0.12)", tabTextColor: "#f0b45b" },
        info: { color: "#7cc4ff", backgroundColor: "rgba(124, 196, 255, 0.12)", tabTextColor: "#7cc4ff" },
      },
    },
    schema: {
      linesColor: "#4a5d86",
      typeNameColor: "#a9b2c3",
      typeTitleColor: "#c6cbd5",
      requireLabelColor: "#ff8a80",
      nestedBackground: "#161d29",
      arrow: { color: "#a9b2c3" },
    },
    breakpoints,
    typography: {
      ...typography,
      code: { ...typography.code, color: "#ffab9e", backgroundColor: "rgba(255, 255, 255, 0.07)" },
      links: { color: "#7aa2ff", visited: "#a98bff", hover: "#a8c1ff" },
    },
    sidebar: {
      width: "280px",
      backgroundColor: "#131a25",
      textColor: "#c6cbd5",
      activeTextColor: "#a8c1ff",
      arrow: { color: "#a9b2c3" },
    },
    rightPanel: {
      backgroundColor: "#0b1019",
      width: "50%",
      textColor: "#e6e9ef",
      servers: {
        overlay: { backgroundColor: "#161d29", textColor: "#e6e9ef" },
        url: { backgroundColor: "#0f141c" },
      },
    },
    codeBlock: { backgroundColor: "#05080d" },
    fab: { backgroundColor: "#1c2a4d", color: "#e6e9ef" },
  },
};
