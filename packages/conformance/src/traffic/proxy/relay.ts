// What every exchange's stages share: the one upstream, the connections kept to it, how long it may
// be silent, and where problems are told.

import {
  type ClientRequest,
  Agent as HttpAgent,
  request as httpRequest,
  type RequestOptions,
} from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import type { Tell } from "./problems.js";

export interface Relay {
  /** The upstream's base URL, and its path without the last slash (every path goes under it). */
  upstream: URL;
  prefix: string;
  /** The kept-alive connections to the upstream (closed with the proxy). */
  agent: HttpAgent | HttpsAgent;
  /** Opens a request to the upstream (node:http or node:https, as its URL says). */
  send: (options: RequestOptions) => ClientRequest;
  /** How long a silent upstream is waited on. */
  timeoutMs: number;
  tell: Tell;
}

export function relayOf(upstreamUrl: string, timeoutMs: number, tell: Tell): Relay {
  const upstream = new URL(upstreamUrl);
  const secure = upstream.protocol === "https:";
  return {
    upstream,
    prefix: upstream.pathname.replace(/\/$/, ""),
    agent: secure ? new HttpsAgent({ keepAlive: true }) : new HttpAgent({ keepAlive: true }),
    send: secure ? httpsRequest : httpRequest,
    timeoutMs,
    tell,
  };
}
