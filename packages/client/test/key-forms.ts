// The forms in which a server may echo the Authorization header (the token after its prefix) back, and the forms of a key
// that must appear nowhere (errors, log lines, reports, output). Failures name a form, never show
// it. Shared by the client's and the conformance suite's secrecy tests.

import { MODEL } from "@platform-api/spec/generated/model";
import { tokenScheme } from "@platform-api/spec/model";

const { tokenPrefix } = tokenScheme(MODEL, "APIKey");

const base64 = (text: string) => Buffer.from(text).toString("base64");
const base64url = (text: string) => Buffer.from(text).toString("base64url");
/** Every byte as %hh, lower-case hex. */
const percentAll = (text: string) =>
  [...Buffer.from(text)].map((b) => `%${b.toString(16).padStart(2, "0")}`).join("");
export const secretPart = (key: string) => key.slice(key.indexOf("$") + 1);

/** How a server might echo the Authorization header it received, by name. */
export function echoes(header: string): Record<string, string> {
  const token = header.startsWith(tokenPrefix) ? header.slice(tokenPrefix.length) : header;
  return {
    plain: header,
    encodeURIComponent: encodeURIComponent(header),
    "every byte %hh": percentAll(header),
    "$ as \\u0024": header.replace("$", "\\u0024"),
    "base64 of the token": base64(token),
    "base64 of the header": base64(header),
    "base64url of the token": base64url(token),
    "base64url of the header": base64url(header),
    "base64 inside a longer value": base64(JSON.stringify({ authorization: header })),
    "secret part alone": secretPart(token),
  };
}

/** The key in every form it must never appear in, by name. */
export function forbiddenForms(key: string): Record<string, string> {
  const secret = secretPart(key);
  return {
    "the key": key,
    "the secret part": secret,
    "the key, encodeURIComponent": encodeURIComponent(key),
    "the key, every byte %hh": percentAll(key),
    "the secret part, every byte %hh": percentAll(secret),
    "the key, $ as \\u0024": key.replace("$", "\\u0024"),
    "base64 of the key": base64(key).replace(/=+$/, ""),
    "base64 of the header": base64(`${tokenPrefix}${key}`).replace(/=+$/, ""),
    "base64url of the key": base64url(key),
    "base64url of the header": base64url(`${tokenPrefix}${key}`),
    "base64 of the secret part": base64(secret).replace(/=+$/, ""),
    "base64url of the secret part": base64url(secret),
    // What a cut at a fixed length leaves of a key that straddles it.
    "the key's first 10 characters": key.slice(0, 10),
    "the secret part's first 8 characters": secret.slice(0, 8),
  };
}

/** The names of the forms of `keys` found in `text` (empty: none). */
export function leaks(text: string, keys: Record<string, string>): string[] {
  const found: string[] = [];
  for (const [which, key] of Object.entries(keys))
    for (const [name, form] of Object.entries(forbiddenForms(key))) {
      // base64 is case-sensitive; any other form is looked for in any case.
      const present = name.includes("base64")
        ? text.includes(form)
        : text.toLowerCase().includes(form.toLowerCase());
      if (present) found.push(`${name} of the ${which}`);
    }
  return found;
}
