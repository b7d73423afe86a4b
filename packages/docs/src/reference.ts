// The description as the reference page shows it: the merged bundle (the seed plus the platform's
// published facts where the seed is silent) plus what Redoc needs to render it for people: code
// samples, a mark on what the platform's documents add and on each field required only by
// inference, visible notes for what is left open, and once per operation what those marks mean.
import { withCodeSamples } from "./code-samples.js";
import { appendBlock } from "./descriptions.js";
import { markInferredRequired } from "./inferred.js";
import { type Json, listOperations, type Operation } from "./operations.js";
import { markPlatformExtensions, markPlatformFacts } from "./platform-facts.js";
import { DARK_REDOC_COLOURS, LIGHT_REDOC_COLOURS, withAlpha } from "./redoc-colours.js";
import { type SiteColour, siteColours } from "./site-colours.js";
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
 * Options given to Redoc, but for its theme (redocThemes); one place, so the tests read the same
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
 * changes. Its colours are the site's, read from site.css (`css`), and the few only Redoc uses.
 */
export function redocThemes(css: string) {
  const colour = siteColours(css);
  return { light: lightTheme(colour), dark: darkTheme(colour) };
}

function lightTheme(colour: (name: string) => SiteColour) {
  return {
    colors: { primary: { main: colour("accent").light } },
    breakpoints,
    typography,
    sidebar: { width: "280px", backgroundColor: colour("bg-soft").light },
    rightPanel: { backgroundColor: LIGHT_REDOC_COLOURS.rightPanel, width: "50%" },
  };
}

function darkTheme(colour: (name: string) => SiteColour) {
  const dark = (name: string) => colour(name).dark;
  const [accent, ink, muted, bgSoft] = [dark("accent"), dark("ink"), dark("muted"), dark("bg-soft")];
  const own = DARK_REDOC_COLOURS;
  // The dark theme's red, its keywords' in code: Redoc's errors and the error responses' tint.
  const error = dark("syntax-keyword");
  const response = (color: string, tint: string) => ({
    color,
    backgroundColor: withAlpha(tint, 0.12),
    tabTextColor: color,
  });
  return {
    colors: {
      primary: { main: accent },
      text: { primary: ink, secondary: muted },
      border: { dark: own.strongBorder, light: dark("line") },
      gray: { 50: bgSoft, 100: dark("caption-bg") },
      success: { main: own.success },
      warning: { main: own.warning },
      error: { main: error },
      responses: {
        success: response(own.responses.success, own.success),
        error: response(own.responses.error, error),
        redirect: response(own.responses.redirect, own.responses.redirect),
        info: response(own.responses.info, own.responses.info),
      },
    },
    schema: {
      linesColor: own.schemaLines,
      typeNameColor: muted,
      typeTitleColor: own.softText,
      requireLabelColor: own.responses.error,
      nestedBackground: bgSoft,
      arrow: { color: muted },
    },
    breakpoints,
    typography: {
      ...typography,
      code: { ...typography.code, color: own.code, backgroundColor: own.codeBackground },
      links: { color: accent, visited: own.visitedLink, hover: own.brightLink },
    },
    sidebar: {
      width: "280px",
      backgroundColor: own.sidebar,
      textColor: own.softText,
      activeTextColor: own.brightLink,
      arrow: { color: muted },
    },
    rightPanel: {
      backgroundColor: own.rightPanel,
      width: "50%",
      textColor: ink,
      servers: {
        overlay: { backgroundColor: bgSoft, textColor: ink },
        url: { backgroundColor: dark("bg") },
      },
    },
    codeBlock: { backgroundColor: own.codeBlock },
    fab: { backgroundColor: dark("accent-soft"), color: ink },
  };
}
