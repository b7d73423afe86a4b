// Removes the keys from anything the suite prints or writes, in every form a target might echo
// them back in: as sent, percent-encoded (either case), JSON/JS-escaped (`\u0024`), as HTML
// character references, hex, base64 or base64url (at any byte alignment, so also inside a longer
// encoded value), and the secret part after the `$` on its own. Text must be redacted whole,
// before it is cut to an excerpt: a cut through a key leaves a piece no redactor can recognise.

/** What a key is replaced with. */
export const REDACTED = "***";

/** Shorter literal forms are not redacted: they would match ordinary text. */
const MIN_LITERAL = 4;
/** Shorter base64 fragments are not redacted, for the same reason. */
const MIN_ENCODED = 6;

const hex2 = (n: number): string => n.toString(16).padStart(2, "0");
const escapeRegExp = (text: string): string => text.replace(/[.*+?^${}()|[\]\\/-]/g, "\\$&");

/** One character, matched as itself or any of its escaped forms (the regex is case-insensitive). */
function charPattern(char: string): string {
  const code = char.codePointAt(0) as number;
  const forms = [escapeRegExp(char), [...Buffer.from(char)].map((b) => `%${hex2(b)}`).join("")];
  if (code <= 0xffff) forms.push(`\\\\u${code.toString(16).padStart(4, "0")}`);
  if (code <= 0xff) forms.push(`\\\\x${hex2(code)}`);
  forms.push(`&#0*${code};`, `&#x0*${code.toString(16)};`);
  return `(?:${forms.join("|")})`;
}

/** A literal, each character possibly escaped, and its hex encoding (case-insensitive). */
function literalPatterns(literal: string): string[] {
  return [
    [...literal].map(charPattern).join(""),
    [...Buffer.from(literal)].map((b) => `(?:${hex2(b)}|%${hex2(b)})`).join(""),
  ];
}

/**
 * The base64 characters that encode `literal` wherever it sits in a longer encoded value: one
 * fragment per byte alignment, without the edge characters its neighbours share; in both the
 * standard and the URL alphabet.
 */
function base64Fragments(literal: string): string[] {
  const bytes = Buffer.from(literal);
  const out: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const padded = Buffer.concat([Buffer.alloc(lead), bytes]);
    const encoded = padded.toString("base64").replace(/=+$/, "");
    const fragment = encoded.slice(Math.ceil((8 * lead) / 6), Math.floor((8 * padded.length) / 6));
    if (fragment.length >= MIN_ENCODED) out.push(fragment, fragment.replace(/\+/g, "-").replace(/\//g, "_"));
  }
  return out;
}

/** The whole base64 and base64url encodings (with their padding, when any) of `literal`. */
function base64Whole(literal: string): string[] {
  const encoded = Buffer.from(literal).toString("base64");
  return [encoded, Buffer.from(literal).toString("base64url")];
}

/** A function that redacts every form of every key (keys shorter than 4 characters are ignored). */
export function createRedactor(secrets: (string | undefined)[]): (text: string) => string {
  const literals = new Set<string>();
  const encoded = new Set<string>();
  for (const key of secrets) {
    if (typeof key !== "string" || key.length < MIN_LITERAL) continue;
    const secret = key.includes("$") ? key.slice(key.indexOf("$") + 1) : key;
    literals.add(key);
    if (secret.length >= MIN_LITERAL) literals.add(secret);
    for (const whole of [...base64Whole(key), ...base64Whole(`APIKey ${key}`)]) encoded.add(whole);
    for (const fragment of base64Fragments(secret.length >= MIN_LITERAL ? secret : key))
      encoded.add(fragment);
  }
  // Longest first, so that a whole key is replaced before its secret part.
  const byLength = (a: string, b: string) => b.length - a.length;
  const literalRegex =
    literals.size === 0
      ? undefined
      : new RegExp([...literals].sort(byLength).flatMap(literalPatterns).join("|"), "gi");
  const encodedRegex =
    encoded.size === 0 ? undefined : new RegExp([...encoded].sort(byLength).map(escapeRegExp).join("|"), "g");
  return (text) => {
    let out = text;
    if (literalRegex) out = out.replace(literalRegex, REDACTED);
    if (encodedRegex) out = out.replace(encodedRegex, REDACTED);
    return out;
  };
}

/** Deep copy with every string redacted. */
export function redactDeep<T>(value: T, redact: (text: string) => string): T {
  return JSON.parse(JSON.stringify(value), (_key, v) => (typeof v === "string" ? redact(v) : v));
}

/**
 * Anything shaped like a platform token (`<digits>$<secret>`, the `$` possibly percent-encoded or
 * escaped): what a usage error may echo when a token was typed where a flag's value belongs.
 */
const TOKEN_SHAPED = /\d+(?:\$|%24|\\u0024)[^\s"'`,;:|()<>[\]{}]{4,}/gi;

/**
 * The redactor of messages about the command line (usage errors, exit 2), before any target is
 * known: the keys in the environment variables that hold them, and anything shaped like a token.
 */
export function createUsageRedactor(
  env: Record<string, string | undefined>,
  keyVariables: (string | undefined)[],
): (text: string) => string {
  const keys = createRedactor(keyVariables.map((name) => (name ? env[name] : undefined)));
  return (text) => keys(text).replace(TOKEN_SHAPED, REDACTED);
}
