// An HTTP layer's options resolved once: what every unit of it reads (the target, the connections
// kept to it, the bounds, the redactor of both keys).

import { Agent as HttpAgent } from "node:http";
import { Agent as HttpsAgent } from "node:https";
import { createRedactor } from "../shared/redact.js";
import { DEADLINE_MS, MAX_ANSWER_BYTES, TIMEOUT_MS } from "./bounds.js";
import type { HttpOptions } from "./options.js";

export interface Layer {
  readonly options: HttpOptions;
  readonly base: URL;
  readonly secure: boolean;
  /** The target's base path without its last slash: every request's path begins with it. */
  readonly prefix: string;
  readonly agent: HttpAgent | HttpsAgent;
  readonly timeoutMs: number;
  readonly deadlineMs: number;
  readonly maxBodyBytes: number;
  /** Multiplies retry waits. */
  readonly scale: number;
  /** Hides both keys, in any form. */
  readonly redact: (text: string) => string;
}

export function layerOf(options: HttpOptions): Layer {
  const base = new URL(options.baseUrl);
  const secure = base.protocol === "https:";
  return {
    options,
    base,
    secure,
    prefix: base.pathname.replace(/\/$/, ""),
    agent: secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    timeoutMs: options.timeoutMs ?? TIMEOUT_MS,
    deadlineMs: options.deadlineMs ?? DEADLINE_MS,
    maxBodyBytes: options.maxBodyBytes ?? MAX_ANSWER_BYTES,
    scale: options.timeScale ?? 1,
    redact: createRedactor([options.apiKey, options.resellerApiKey]),
  };
}
