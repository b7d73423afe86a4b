// The headers an exchange's evidence keeps (report.json, report.html): names lower-cased, every
// value passed through the run's redactor, and a header that carries a credential (Authorization,
// a cookie, an API key header) kept by name only, its value never shown in any form: not even its
// scheme, since a token a target does not know (another client's) is no key the redactor knows
// either. Bounded, so a target with ten thousand headers or a megabyte of one cannot swell a report.

import { isCredentialHeader } from "../facts/credential-names.js";
import { REDACTED } from "../shared/redact.js";

/** At most this many headers are kept per side of an exchange, each value cut to VALUE characters. */
export const HEADERS = 32;
export const VALUE = 256;
/** The name of the entry that says how many headers were left out (no header can be named so). */
export const MORE = "…";

export function shownHeaders(
  headers: Record<string, string | undefined>,
  redact: (text: string) => string,
  limits: { headers: number; value: number } = { headers: HEADERS, value: VALUE },
): Record<string, string> {
  const cut = (text: string) => cutText(text, limits.value);
  const entries = Object.entries(headers).filter(
    (entry): entry is [string, string] => entry[1] !== undefined,
  );
  const shown = entries.slice(0, limits.headers).map(([name, value]): [string, string] => {
    const lower = cut(redact(name.toLowerCase()));
    if (isCredentialHeader(name)) return [lower, REDACTED];
    // Redacted whole before the cut: a key straddling it would otherwise survive as a piece.
    return [lower, cut(redact(value))];
  });
  if (entries.length > limits.headers)
    shown.push([MORE, `${entries.length - limits.headers} more headers not kept`]);
  // Own properties even for a name like __proto__ (an assignment would set the prototype).
  return Object.fromEntries(shown);
}

/** The first `limit` characters of a text and, where it was cut, how long it was. */
export function cutText(text: string, limit: number): string {
  return text.length > limit ? `${text.slice(0, limit)}… (cut: ${text.length} characters in all)` : text;
}
