// A key in a browser page is readable by every script on the page and by anyone who opens its
// developer tools: the client says so once, unless told that this is meant.
import type { ResolvedOptions } from "./options.js";

let warned = false;

export const BROWSER_WARNING =
  "@platform-api/client: an API key is in use in a browser page, where the page's scripts, its extensions and " +
  "anyone with its developer tools can read it. Call the API from a server (or a backend that holds the key) " +
  "instead; where the key is meant to be there (an internal tool, a token the reader typed in), pass " +
  "dangerouslyAllowBrowser: true.";

/** Warns once per process (through the logger, else console.warn) when a client is created in a page. */
export function warnInBrowser({ logger, dangerouslyAllowBrowser }: ResolvedOptions): void {
  // A page has a document; Node, Deno, Bun and web workers have none.
  if (warned || dangerouslyAllowBrowser || (globalThis as { document?: unknown }).document === undefined)
    return;
  warned = true;
  if (logger?.warn) logger.warn(BROWSER_WARNING);
  else globalThis.console?.warn(BROWSER_WARNING);
}
