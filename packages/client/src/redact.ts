// Removes the client's API keys from what its errors and log lines hold, in every form a server
// might echo them back in: as sent, percent-encoded (either case), JSON/JS-escaped (`\u0024`),
// as HTML character references, hex, base64 or base64url (at any byte alignment, so also inside
// a longer encoded value), and the secret part after the `$` on its own. No Node-only API: the
// client runs in browsers too.
import { authorization } from "@platform-api/spec/model";
import { API_KEY } from "./tokens.js";

/** What a key is replaced with. */
export const REDACTED = "***";

/** Shorter literal forms are not redacted: they would match ordinary text. */
const MIN_LITERAL = 4;
/** Shorter base64 fragments are not redacted, for the same reason. */
const MIN_ENCODED = 6;
/** How deep into a value or an error's causes redaction goes. */
const MAX_DEPTH = 32;

export interface Redactor {
  /** The text with every form of every key replaced by `***`. */
  text(text: string): string;
  /** A copy of a plain value (JSON-like: strings, arrays, plain objects) with every string and key redacted. */
  value<T>(value: T): T;
  /** The same error, redacted in place: message, stack, cause and every other own property. */
  error<E>(error: E): E;
}

const utf8 = (text: string): Uint8Array => new TextEncoder().encode(text);
const hex2 = (n: number): string => n.toString(16).padStart(2, "0");
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** One character, matched as itself or any of its escaped forms (the regex is case-insensitive). */
function charPattern(char: string): string {
  const code = char.codePointAt(0) as number;
  const forms = [escapeRegExp(char), [...utf8(char)].map((b) => `%${hex2(b)}`).join("")];
  if (code <= 0xffff) forms.push(`\\\\u${code.toString(16).padStart(4, "0")}`);
  if (code <= 0xff) forms.push(`\\\\x${hex2(code)}`);
  forms.push(`&#0*${code};`, `&#x0*${code.toString(16)};`);
  return `(?:${forms.join("|")})`;
}

/** A literal, each character possibly escaped, and its hex encoding (case-insensitive). */
function literalPatterns(literal: string): string[] {
  return [
    [...literal].map(charPattern).join(""),
    [...utf8(literal)].map((b) => `(?:${hex2(b)}|%${hex2(b)})`).join(""),
  ];
}

function toBase64(bytes: Uint8Array): string {
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary);
}

/**
 * The base64 characters that encode `literal` wherever it sits in a longer encoded value: one
 * fragment per byte alignment, without the edge characters its neighbours share; in both the
 * standard and the URL alphabet.
 */
function base64Fragments(literal: string): string[] {
  const bytes = utf8(literal);
  const out: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const padded = new Uint8Array(lead + bytes.length);
    padded.set(bytes, lead);
    const encoded = toBase64(padded).replace(/=+$/, "");
    const fragment = encoded.slice(Math.ceil((8 * lead) / 6), Math.floor((8 * padded.length) / 6));
    if (fragment.length >= MIN_ENCODED) out.push(fragment, fragment.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

/** The whole base64 and base64url encodings (with their padding, when any) of `literal`. */
function base64Whole(literal: string): string[] {
  const encoded = toBase64(utf8(literal));
  const url = encoded.replace(/\+/g, "-").replace(/\//g, "_");
  return [encoded, url, url.replace(/=+$/, "")];
}

const isPlainObject = (value: object): boolean => {
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
};

/**
 * The plain strings a key is redacted in: `literals` (matched case-insensitively, each character
 * possibly escaped, and as hex) and `encoded` (base64 forms, matched as they are). Empty for a key
 * too short to redact. A caller that meets many keys (a proxy seeing a token per request) builds
 * each key's forms once from these.
 */
export function keyForms(key: string | undefined): { literals: string[]; encoded: string[] } {
  if (typeof key !== "string" || key.length < MIN_LITERAL) return { literals: [], encoded: [] };
  const secret = key.includes("$") ? key.slice(key.indexOf("$") + 1) : key;
  const literals = secret !== key && secret.length >= MIN_LITERAL ? [key, secret] : [key];
  const encoded = [
    ...base64Whole(key),
    ...base64Whole(authorization(API_KEY, key)),
    ...base64Fragments(secret.length >= MIN_LITERAL ? secret : key),
  ];
  return { literals, encoded };
}

export function createRedactor(keys: readonly (string | undefined)[]): Redactor {
  const literals = new Set<string>();
  const encoded = new Set<string>();
  for (const key of keys) {
    const forms = keyForms(key);
    for (const literal of forms.literals) literals.add(literal);
    for (const form of forms.encoded) encoded.add(form);
  }
  // Longest first, so that a whole key is replaced before its secret part.
  const byLength = (a: string, b: string) => b.length - a.length;
  const literalRegex =
    literals.size === 0
      ? undefined
      : new RegExp([...literals].sort(byLength).flatMap(literalPatterns).join("|"), "gi");
  const encodedRegex =
    encoded.size === 0 ? undefined : new RegExp([...encoded].sort(byLength).map(escapeRegExp).join("|"), "g");

  const text = (input: string): string => {
    let out = input;
    if (literalRegex) out = out.replace(literalRegex, REDACTED);
    if (encodedRegex) out = out.replace(encodedRegex, REDACTED);
    return out;
  };

  const seenErrors = new WeakSet<object>();

  function value<T>(input: T, depth = 0): T {
    if (typeof input === "string") return text(input) as T;
    if (input === null || typeof input !== "object" || depth > MAX_DEPTH) return input;
    if (input instanceof Error) return error(input, depth);
    if (Array.isArray(input)) return input.map((item) => value(item, depth + 1)) as T;
    if (!isPlainObject(input)) return input;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(input)) out[text(k)] = value(v, depth + 1);
    return out as T;
  }

  function error<E>(input: E, depth = 0): E {
    if (typeof input === "string") return text(input) as E;
    if (input === null || typeof input !== "object" || depth > MAX_DEPTH) return input;
    if (!(input instanceof Error)) return value(input, depth);
    if (seenErrors.has(input)) return input;
    seenErrors.add(input);
    for (const name of Object.getOwnPropertyNames(input)) {
      const descriptor = Object.getOwnPropertyDescriptor(input, name);
      if (!descriptor || !("value" in descriptor)) continue;
      const redacted = value(descriptor.value, depth + 1);
      if (redacted === descriptor.value) continue;
      try {
        Object.defineProperty(input, name, { ...descriptor, value: redacted });
      } catch {
        // A frozen error that is not ours: leave it.
      }
    }
    return input;
  }

  return { text, value: (input) => value(input), error: (input) => error(input) };
}
