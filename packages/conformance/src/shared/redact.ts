// What the suite prints or writes never holds a key, in any form a target might echo it back in:
// the client's redactor (as sent, percent-encoded, escaped, hex, base64, the secret part alone).
// Text must be redacted whole, before it is cut to an excerpt: a cut through a key leaves a piece
// no redactor can recognise.

import { createRedactor as createClientRedactor, keyForms, REDACTED } from "@platform-api/client/redact";
import { BoundedMap } from "./bounded-map.js";

export { REDACTED };

/**
 * The suite's own names, kept whole by every redactor made after it is given (src/active/vocabulary.ts
 * gives it when loaded: it reads the registries, which import this module, so it cannot be imported
 * here). Every entry point loads it first (run, fuzz, observe/verify, the CLI, the library).
 */
let suiteVocabulary: () => readonly string[] = () => [];
export function keepSuiteNames(vocabulary: () => readonly string[]): void {
  suiteVocabulary = vocabulary;
  // Built before, they would leave these names unkept.
  built.clear();
}

/**
 * A function that redacts every form of every key (keys shorter than 4 characters are ignored),
 * except inside the suite's own names (src/active/vocabulary.ts).
 */
export function createRedactor(secrets: (string | undefined)[]): (text: string) => string {
  const id = JSON.stringify(secrets.map((secret) => secret ?? null));
  let redact = built.get(id);
  if (!redact) {
    redact = buildRedactor(secrets);
    built.set(id, redact);
  }
  return redact;
}

/**
 * Redactors made, by their keys: a run makes one for each scenario and each HTTP layer, all with its
 * same keys, and making one compiles every form of every key and looks for them in every suite name
 * (about a tenth of a run's worker CPU). A redactor holds no state, so one made before serves. Few
 * are in use at once (a run's keys, a command line's); a traffic's many tokens build theirs
 * uncached, once each.
 */
const built = new BoundedMap<string, (text: string) => string>(16);

function buildRedactor(secrets: (string | undefined)[]): (text: string) => string {
  const forms = plainForms(secrets);
  const redact = patternsOf(secrets, forms);
  if (!asciiOnly(secrets)) return redact;
  // Most of what a run redacts (URLs, headers, excerpts) holds no key: measured, the patterns' scan
  // of them was a twentieth of a run's CPU. A few substring searches tell such text apart.
  return (text: string) => (surelyWithout(forms, text) ? text : redact(text));
}

/** The keys' patterns (the client's redactor), the suite's own names kept. */
function patternsOf(secrets: (string | undefined)[], forms: PlainForms): (text: string) => string {
  return keepingSuiteNames(forms, createClientRedactor(secrets).text);
}

/** A key's plain forms: its literals lower-cased and as hex, and its base64 forms as they are. */
type PlainForms = { lower: string[]; exact: string[] };

function plainForms(secrets: (string | undefined)[]): PlainForms {
  const forms = secrets.map(keyForms);
  return {
    lower: forms.flatMap((f) => f.literals.flatMap((l) => [l.toLowerCase(), hexOf(l)])),
    exact: forms.flatMap((f) => f.encoded),
  };
}

/**
 * Whether the plain forms of `secrets` stand for their patterns: only for keys of ASCII characters
 * (a case-insensitive match of other characters is not a lower-cased substring).
 */
const asciiOnly = (secrets: (string | undefined)[]) =>
  secrets.every((key) => key === undefined || /^[\x20-\x7e]*$/.test(key));

/**
 * Whether no pattern of the keys can match `text`: it holds no escaped character, so a key in it
 * would be one of its plain forms, and it holds none of them.
 */
function surelyWithout(plain: PlainForms, text: string): boolean {
  return !ESCAPE.test(text) && holdsNone(plain, text, text.toLowerCase());
}

/** Whether `text` (and `lower`, it lower-cased) holds none of the plain forms. */
function holdsNone(plain: PlainForms, text: string, lower: string): boolean {
  return (
    !plain.lower.some((form) => lower.includes(form)) && !plain.exact.some((form) => text.includes(form))
  );
}

/** Marks a kept name while the key's patterns run: private-use characters no key is made of. */
const OPEN = "\uE000";
const CLOSE = "\uE001";
const KEPT = /\uE000(\d+)\uE001/g;

/**
 * The redactor, with the suite's own names set aside while it runs and put back after. Only the
 * names a form of a key occurs in are set aside (none, for a key of random characters): a secret
 * part that is a word (`test$client-token`) is still redacted everywhere else, and a whole token
 * (`<id>$<secret>`) is never inside a name, as no name holds a `$`. Text that already holds the
 * marker characters is redacted as it is, nothing set aside.
 */
function keepingSuiteNames(forms: PlainForms, redact: (text: string) => string) {
  if (forms.lower.length === 0) return redact;
  const endangered = suiteVocabulary().filter((name) => !holdsNone(forms, name, name.toLowerCase()));
  if (endangered.length === 0) return redact;
  return (text: string) => {
    if (text.includes(OPEN) || text.includes(CLOSE)) return redact(text);
    let masked = text;
    endangered.forEach((name, i) => {
      if (masked.includes(name)) masked = masked.split(name).join(`${OPEN}${i}${CLOSE}`);
    });
    if (masked === text) return redact(text);
    return redact(masked).replace(KEPT, (_, i: string) => endangered[Number(i)] as string);
  };
}

/** Text holding an escaped character (`%2f`, `\\u0024`, `\\x24`, `&#36;`): a key's escaped forms may hide in it. */
const ESCAPE = /%[0-9a-f]{2}|\\[ux]|&#/i;
const hexOf = (text: string) => Buffer.from(text).toString("hex");

/** A redactor that learns keys one at a time. */
export interface GrowingRedactor {
  /** Adds a key (again: nothing); its patterns are built now, once. */
  add(key: string): void;
  (text: string): string;
}

/**
 * A redactor for a traffic that brings new keys as it goes (a client rotating its token per
 * request): each key's patterns are compiled once, when it is added, never rebuilt with the
 * others. Text without an escaped character is first searched for each key's plain forms (a
 * substring search), and only a key found there runs its patterns; so a text costs a few
 * substring searches per key, however many keys came before.
 */
export function createGrowingRedactor(): GrowingRedactor {
  type Key = { length: number; redact: (text: string) => string; plain: PlainForms | undefined };
  const known = new Set<string>();
  // Longest first, so that no shorter key cuts a longer one that holds it before it is matched.
  const keys: Key[] = [];
  const redact = ((text: string): string => {
    if (keys.length === 0 || text.length < 4) return text;
    const escaped = ESCAPE.test(text);
    let out = text;
    let lower = escaped ? "" : text.toLowerCase();
    for (const key of keys) {
      if (!escaped && key.plain && holdsNone(key.plain, out, lower)) continue;
      const next = key.redact(out);
      if (next !== out) {
        out = next;
        if (!escaped) lower = out.toLowerCase();
      }
    }
    return out;
  }) as GrowingRedactor;
  redact.add = (key: string) => {
    if (known.has(key)) return;
    known.add(key);
    const forms = plainForms([key]);
    if (forms.lower.length === 0) return;
    // A key of other than ASCII characters always runs its patterns (asciiOnly).
    const entry: Key = {
      length: key.length,
      redact: patternsOf([key], forms),
      plain: asciiOnly([key]) ? forms : undefined,
    };
    const at = keys.findIndex((k) => k.length < entry.length);
    keys.splice(at < 0 ? keys.length : at, 0, entry);
  };
  return redact;
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
/** The `$` a token-shaped value holds, in each form TOKEN_SHAPED reads. */
const TOKEN_DOLLAR = /\$|%24|\\u0024/i;

/**
 * The password of a URL's user information (`scheme://user:password@host`), wherever a URL is in
 * text. The last `@` before the path ends it, as URL parsers read it. The user name stays: it names
 * an account, it does not open one.
 */
const URL_PASSWORD = /(\b[a-z][a-z0-9+.-]*:\/\/[^\s/?#:]*:)[^\s/?#]*@/gi;

/** The text with the password of every URL in it shown as `***` (`http://user:***@host`). */
export function hideUrlPasswords(text: string): string {
  // Most text holds no URL: a substring search spares the pattern's scan.
  return text.includes("://") ? text.replace(URL_PASSWORD, `$1${REDACTED}@`) : text;
}

/** The passwords of URLs given on the command line, as typed and as a URL parser reads them. */
function urlPasswords(values: (string | undefined)[]): string[] {
  const out: string[] = [];
  for (const value of values) {
    const typed = value && /^[a-z][a-z0-9+.-]*:\/\/[^\s/?#:]*:([^\s/?#]*)@/i.exec(value)?.[1];
    if (!value || !typed) continue;
    out.push(typed);
    try {
      out.push(decodeURIComponent(typed));
    } catch {
      // Not percent-encoded: the typed form is the password.
    }
    if (URL.canParse(value)) out.push(new URL(value).password);
  }
  return out;
}

/**
 * The redactor of messages about the command line (usage errors, exit 2), before any target is
 * known: the keys in the environment variables that hold them, anything shaped like a token, the
 * password of any URL, and in every form the password of each URL in `urls` (the flags' values).
 */
export function createUsageRedactor(
  env: Record<string, string | undefined>,
  keyVariables: (string | undefined)[],
  urls: (string | undefined)[] = [],
): (text: string) => string {
  const keys = createRedactor([
    ...keyVariables.map((name) => (name ? env[name] : undefined)),
    ...urlPasswords(urls),
  ]);
  return (text) => {
    const hidden = hideUrlPasswords(keys(text));
    // The pattern tries at every digit; text without the token's `$`, in any form, cannot hold one.
    return TOKEN_DOLLAR.test(hidden) ? hidden.replace(TOKEN_SHAPED, REDACTED) : hidden;
  };
}
