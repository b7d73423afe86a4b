// Credentials the suite has no key for (a client's own header, a query parameter, a body field),
// found by their names: the one list of those names, for what observe records (the HAR), what
// every report format shows (src/report/formats.ts) and the headers an
// exchange's evidence keeps. The README lists the same names ("Credentials by name").

import { REDACTED } from "../shared/redact.js";

/**
 * A header whose name holds one of these words carries a credential, or may: its value is never
 * written (Authorization, Proxy-Authorization, Cookie, Set-Cookie, X-Api-Key, Api-Key, X-Auth-Token,
 * X-Amz-Security-Token, X-CSRF-Token, …).
 */
export const CREDENTIAL_HEADER_WORDS = [
  "auth",
  "cookie",
  "key",
  "token",
  "secret",
  "session",
  "signature",
  "password",
  "credential",
] as const;

/** Query parameters (and form fields) whose value is a credential, by name (any case). */
export const CREDENTIAL_PARAMETERS = [
  "api_key",
  "apikey",
  "api-key",
  "key",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "auth",
  "auth_token",
  "password",
  "passwd",
  "pwd",
  "secret",
  "client_secret",
  "signature",
  "sig",
  "x-amz-signature",
  "x-amz-credential",
  "x-amz-security-token",
  "session",
  "sessionid",
] as const;

/** JSON fields whose value is a credential, by name (any case), at any depth. */
export const CREDENTIAL_FIELDS = [
  "password",
  "passwd",
  "secret",
  "token",
  "access_token",
  "refresh_token",
  "id_token",
  "auth_token",
  "session_token",
  "api_key",
  "apikey",
  "private_key",
  "client_secret",
  "secret_key",
  "access_key",
  "secret_access_key",
] as const;

const HEADER = new RegExp(CREDENTIAL_HEADER_WORDS.join("|"), "i");

/** Whether a header's value is a credential, by its name. */
export function isCredentialHeader(name: string): boolean {
  return HEADER.test(name);
}

const PARAMETER_NAMES = new Set<string>(CREDENTIAL_PARAMETERS);

/** Whether a query parameter's value is a credential, by its name. */
export function isCredentialParameter(name: string): boolean {
  return PARAMETER_NAMES.has(name.toLowerCase());
}

const escaped = (names: readonly string[]) => names.map((n) => n.replace(/[.*+?^${}()|[\]\\-]/g, "\\$&"));

// A named parameter where a query or a form body has one: after `?`, `&` or the text's start. Its
// value ends where a URL's or a form's does, or where a sentence, JSON string or cut goes on.
const PARAMETER = new RegExp(`(^|[?&])(${escaped(CREDENTIAL_PARAMETERS).join("|")})=[^&#\\s"'<>…]*`, "gi");

// A named JSON field's string or number value. A string is read to its closing quote, or to the
// end of an excerpt's cut (`…`), which is kept: the excerpt still says it was cut.
const FIELD = new RegExp(
  `("(?:${escaped(CREDENTIAL_FIELDS).join("|")})"\\s*:\\s*)(?:"(?:[^"\\\\…]|\\\\.)*"?|-?\\d[\\d.eE+-]*)`,
  "gi",
);

/**
 * The text with the value of every credential named in it hidden as `***`: query parameters and
 * form fields (CREDENTIAL_PARAMETERS) and JSON fields (CREDENTIAL_FIELDS). Give it text before it
 * is cut: a value a cut splits from its name is no longer known by it.
 */
export function hideCredentials(text: string): string {
  if (!text.includes("=") && !text.includes('"')) return text;
  return text
    .replace(PARAMETER, `$1$2=${REDACTED}`)
    .replace(
      FIELD,
      (match, name: string) =>
        `${name}${match.slice(name.length).startsWith('"') ? `"${REDACTED}"` : REDACTED}`,
    )
    .replace(new RegExp(`"${REDACTED.replace(/\*/g, "\\*")}"…`, "g"), `"${REDACTED}…`);
}

/**
 * Values shorter than this are hidden where their name stands, never learnt as secrets: a short
 * one (`key=name`) would otherwise be redacted from every text it happens to be in.
 */
const LEARNT_LENGTH = 8;

/** The JSON fields by CREDENTIAL_FIELDS' names, at any depth, of a body that parses as JSON. */
function fieldValues(body: string, out: string[]): void {
  let parsed: unknown;
  try {
    parsed = JSON.parse(body);
  } catch {
    return;
  }
  const fields = new Set<string>(CREDENTIAL_FIELDS);
  const walk = (value: unknown, depth: number) => {
    if (depth > 64 || value === null || typeof value !== "object") return;
    for (const [name, inner] of Object.entries(value)) {
      if (fields.has(name.toLowerCase()) && (typeof inner === "string" || typeof inner === "number"))
        out.push(String(inner));
      else walk(inner, depth + 1);
    }
  };
  walk(parsed, 0);
}

/**
 * The credentials an exchange carries by name (credential headers, cookies, named query parameters,
 * form and JSON fields of the request body), for a redactor to learn: once learnt, an echo of one
 * anywhere (an answer that quotes the request) is redacted in every form, not only where its name
 * stands.
 */
export function credentialValues(exchange: {
  url: string;
  requestHeaders: Record<string, string | undefined>;
  responseHeaders?: Record<string, string | undefined>;
  requestBody?: string;
}): string[] {
  const out: string[] = [];
  const headers = [
    ...Object.entries(exchange.requestHeaders),
    ...Object.entries(exchange.responseHeaders ?? {}).filter(([name]) => name.toLowerCase() === "set-cookie"),
  ];
  for (const [name, value] of headers) {
    if (value === undefined || !isCredentialHeader(name)) continue;
    if (/cookie/i.test(name))
      for (const pair of value.split(/[;,]/)) {
        const at = pair.indexOf("=");
        if (at > 0) out.push(pair.slice(at + 1).trim());
      }
    else {
      const [first = "", ...rest] = value.trim().split(/\s+/);
      out.push(rest.length > 0 ? rest.join(" ") : first);
    }
  }
  const query = exchange.url.indexOf("?");
  const forms = [query < 0 ? "" : exchange.url.slice(query + 1).split("#")[0]];
  const body = exchange.requestBody ?? "";
  if (body.trimStart().startsWith("{") || body.trimStart().startsWith("[")) fieldValues(body, out);
  else if (body.includes("=")) forms.push(body);
  for (const form of forms)
    for (const [name, value] of new URLSearchParams(form)) if (isCredentialParameter(name)) out.push(value);
  return [...new Set(out)].filter((value) => value.length >= LEARNT_LENGTH);
}
