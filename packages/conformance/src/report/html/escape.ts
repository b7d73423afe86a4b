// Text for the HTML report. Everything printed comes from a run against a server no one here
// controls (reasons, paths, answer excerpts), so it is redacted and then escaped, always in that
// order, through `text()` and `attr()`; nothing reaches the page any other way.

import { showControls } from "../../shared/controls.js";
import { REDACTED } from "../../shared/redact.js";

/**
 * The value of anything written as an Authorization header, in a server's echo of a request
 * (`Authorization: <scheme> …`, `"authorization":"…"`). The suite records no header, and its own
 * keys are redacted in every form already; this hides a token it does not know (another one the
 * target echoes) too, because no header value belongs in a report.
 */
const AUTHORIZATION =
  /(authorization\\?["']?\s*[:=]\s*\\?["']?)([^\s"'\\,;}<>]+)(?:([ +])([^\s"'\\,;}<>]+))?/gi;

export function hideAuthorizationValues(text: string): string {
  return text.replace(AUTHORIZATION, (match, name: string, first: string, sep?: string, second?: string) => {
    // A shell variable (a reproducer's "$GCORE_API_KEY") names where a token is, not the token.
    if (second !== undefined && /^\$\{?[A-Za-z_][A-Za-z0-9_]*\}?$/.test(second)) return match;
    if (second !== undefined) return `${name}${first}${sep}${REDACTED}`;
    // A scheme name alone ("Authorization: <scheme> <token>" in a server's help text) holds no secret.
    if (/^[A-Za-z]{1,10}$/.test(first)) return match;
    return `${name}${REDACTED}`;
  });
}

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/**
 * HTML-escapes characters that could open markup or leave an attribute, and shows bidi overrides
 * and isolates (U+202E would show what follows reversed), control and other invisible characters
 * as visible escapes (`\u202e`, src/shared/controls.ts); line breaks and tabs stay.
 */
export function escapeHtml(text: string): string {
  return showControls(text, "\n\r\t").replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

export type Redact = (text: string) => string;

/** Redacts, then escapes: the one way text gets into the page. */
export function textOf(redact: Redact): (value: unknown) => string {
  return (value) =>
    escapeHtml(hideAuthorizationValues(redact(value === null || value === undefined ? "" : String(value))));
}
