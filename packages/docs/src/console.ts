// The reference's "Try it" console: what each operation's panel is prefilled with, generated from
// the description (never written per operation) and embedded in the reference page as JSON data
// for assets/console.js, which sends the call with `fetch` and shows the answer. The page may call
// another origin (the embedded simulator, or the address the reader types), so the reference's
// Content-Security-Policy allows connections the other pages do not.
import { buildModel } from "@platform-api/spec";
import { CONTENT_SECURITY_POLICY } from "./layout.js";
import { exampleValue, type Json, listOperations, type Operation, tokenSchemeOf } from "./operations.js";

/** One operation as its panel needs it. */
export interface ConsoleOperation {
  operationId: string;
  method: string;
  /** The path template ("/cloud/v1/tasks/{task_id}"): the panel puts the path parameters in. */
  path: string;
  /** Path and query parameters, each prefilled with its example (path, required) or its default. */
  parameters: { name: string; in: "path" | "query"; required: boolean; value: string }[];
  /** The body example, pretty JSON, when the operation takes a JSON body. */
  body?: string;
  /** Which of the reader's tokens the operation's security scheme takes. */
  token: "client" | "reseller";
  /** The header that carries it, and what precedes the token there ("APIKey "). */
  header: string;
  prefix: string;
}

/** What the console needs beside the operations. */
export interface ConsoleData {
  /** The address the panels call when no simulator is served beside the site: the spec's server. */
  defaultBaseUrl: string;
  operations: ConsoleOperation[];
}

/**
 * Where `pnpm docs:serve` tells the page which simulator it started (its URL and tokens), relative
 * to the site's root. The build writes it with no target, so a static host answers it too.
 */
export const CONSOLE_TARGET_FILE = "console-target.json";

/** What the target file holds: the embedded simulator, or nothing (the reader types a URL). */
export interface ConsoleTarget {
  simulator?: { url: string; tokens: { client: string; reseller: string } };
}

/** The target file as the build writes it: no simulator is known to a static copy of the site. */
export const NO_CONSOLE_TARGET: ConsoleTarget = {};

/**
 * The reference page's policy: the site's own, except that scripts may connect to the embedded
 * simulator or any loopback port (http) and to any https address the reader types. Plain http to
 * another host stays refused: a token would cross the network in the clear.
 */
export const CONSOLE_CONNECT_SRC = "connect-src 'self' http://127.0.0.1:* http://localhost:* https:";
export const CONSOLE_CONTENT_SECURITY_POLICY = (() => {
  const directive = "connect-src 'self'";
  if (!CONTENT_SECURITY_POLICY.split("; ").includes(directive))
    throw new Error(`The site's policy no longer says "${directive}": update src/console.ts.`);
  return CONTENT_SECURITY_POLICY.split("; ")
    .map((d) => (d === directive ? CONSOLE_CONNECT_SRC : d))
    .join("; ");
})();

export function consoleData(doc: Json): ConsoleData {
  return {
    defaultBaseUrl: buildModel(doc).conventions.defaultBaseUrl,
    operations: listOperations(doc).map((op) => consoleOperation(doc, op)),
  };
}

function consoleOperation(doc: Json, op: Operation): ConsoleOperation {
  const { headerName, tokenPrefix } = tokenSchemeOf(doc, op);
  return {
    operationId: op.operationId,
    method: op.method.toUpperCase(),
    path: op.path,
    parameters: op.parameters.flatMap((p) =>
      p.in === "path" || p.in === "query"
        ? [{ name: p.name, in: p.in, required: p.required, value: prefill(doc, op, p.name) }]
        : [],
    ),
    ...(op.hasBody ? { body: JSON.stringify(op.bodyExample ?? {}, null, 2) } : {}),
    token: op.reseller ? "reseller" : "client",
    header: headerName,
    prefix: tokenPrefix,
  };
}

/** A path or required parameter's example; an optional one's default, or nothing (not sent). */
function prefill(doc: Json, op: Operation, name: string): string {
  const parameter = op.parameters.find((p) => p.name === name);
  if (!parameter) return "";
  const value =
    parameter.in === "path" || parameter.required ? exampleValue(doc, parameter) : parameter.default;
  if (value === undefined || value === null || typeof value === "object") return "";
  return String(value);
}

/** The console's data as the reference page embeds it (a JSON block, which the policy lets be). */
export function consoleDataScript(doc: Json): string {
  const json = JSON.stringify(consoleData(doc)).replace(/</g, "\\u003c");
  return `<script id="try-it-data" type="application/json">${json}</script>`;
}

/** The reference page's head lines for the console: its policy and its stylesheet. */
export const consoleCspMeta = () =>
  `<meta http-equiv="Content-Security-Policy" content="${CONSOLE_CONTENT_SECURITY_POLICY}">`;
