// Who may call the admin surface (/_sim/), which resets the world, moves the clock and sets faults:
//
// - anyone with the simulator's admin token in X-Sim-Admin-Token (compared in constant time);
//   a wrong token is refused, never passed over;
// - else only a peer at 127.0.0.1 or ::1 — the addresses this machine's own programs connect from
//   (another 127.x source is taken for a remote peer: stricter, and what the tests stand on) —
//   and only when the request could not come from a web page the user opened:
//   - its Host header names loopback (127.x.x.x, localhost, [::1]) and the port the request came
//     in on, so a page that rebinds its own name to 127.0.0.1 (DNS rebinding) is refused;
//   - a request other than GET carries Content-Type: application/json, body or not (POST
//     /_sim/reset too): a page can send no other type cross-site without the browser asking the
//     server first (CORS preflight), which the simulator never allows.
// A route may also let a client token the simulator accepts stand for the admin token (GET
// /_sim/hints: it tells that token's own client what the API cannot).
//
// Refusals are 403s in the platform's error shape, saying what is required.

import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { TokenScheme } from "@platform-api/spec";
import type { FastifyRequest } from "fastify";
import { sentToken } from "./auth.js";
import { ApiError } from "./errors.js";
import { ADMIN_TOKEN_HEADER } from "./options.js";
import { quote } from "./validation-message.js";

/** A fresh admin token: 32 random bytes, base64url (43 characters). */
export function randomAdminToken(): string {
  return randomBytes(32).toString("base64url");
}

/** Whether `given` is `token`, in a time that does not depend on where they differ. */
export function sameToken(given: string, token: string): boolean {
  // Digests of equal length, so neither the length nor a common prefix shows in the time taken.
  const digest = (text: string) => createHash("sha256").update(text, "utf8").digest();
  return timingSafeEqual(digest(given), digest(token));
}

const TRUSTED_PEERS = new Set(["127.0.0.1", "::1", "::ffff:127.0.0.1"]);
const LOOPBACK_NAME = /^(127(\.(25[0-5]|2[0-4]\d|1?\d?\d)){3}|localhost|\[::1\])$/i;
const WITHOUT_BODY = new Set(["GET", "HEAD"]);

export interface GuardOptions {
  adminToken: string;
  /** The port the server listens on, when it does (app.inject has no socket port of its own). */
  listeningPort(): number | undefined;
  /** How a client token is sent: its security scheme's header and prefix. */
  tokenScheme: TokenScheme;
  /** Whether a client token (sent as `tokenScheme` says) is one the simulator accepts. */
  acceptsClientToken(token: string): boolean;
}

/**
 * Throws a 403 ApiError unless the request may reach the admin surface (rules above).
 * `clientTokenOpens`: a client token the simulator accepts opens the route too.
 */
export function guardAdminRequest(
  request: FastifyRequest,
  options: GuardOptions,
  clientTokenOpens = false,
): void {
  const given = request.headers[ADMIN_TOKEN_HEADER.toLowerCase()];
  if (given !== undefined) {
    if (typeof given === "string" && sameToken(given, options.adminToken)) return;
    throw new ApiError(
      403,
      `${ADMIN_TOKEN_HEADER} does not match the simulator's admin token (printed at its start with --allow-remote-listen; Simulator.adminToken in-process).`,
    );
  }
  if (clientTokenOpens) {
    const token = sentToken(request.headers, options.tokenScheme);
    if (token !== undefined && options.acceptsClientToken(token)) return;
  }
  const peer = request.socket.remoteAddress ?? "an unknown address";
  if (!TRUSTED_PEERS.has(peer))
    throw new ApiError(
      403,
      `The admin surface (/_sim/) answers a caller other than this machine's 127.0.0.1 or ::1 (this one is ${peer}) only with the ${ADMIN_TOKEN_HEADER} header: the simulator's admin token, printed at its start with --allow-remote-listen.`,
    );
  const port = request.socket.localPort ?? options.listeningPort();
  const host = request.headers.host;
  if (!namesLoopback(host, port)) {
    const named = port === undefined ? "" : `:${port}`;
    throw new ApiError(
      403,
      `Without the ${ADMIN_TOKEN_HEADER} header, the admin surface answers only requests whose Host header names loopback and this server's port (127.0.0.1${named}, localhost${named} or [::1]${named}), so a web page cannot reach it by DNS rebinding; the Host header is ${host === undefined ? "missing" : quote(host)}.`,
    );
  }
  if (!WITHOUT_BODY.has(request.method) && !isJson(request.headers["content-type"])) {
    const type = request.headers["content-type"];
    throw new ApiError(
      403,
      `${request.method} ${request.url.split("?")[0]} needs Content-Type: application/json, with a body or without (${type === undefined ? "none was sent" : `got ${quote(type)}`}): a web page cannot send it to another site unasked. Or send the ${ADMIN_TOKEN_HEADER} header.`,
    );
  }
}

/** "127.0.0.1:4020", "localhost:4020", "[::1]:4020" for the server's port (80 when the Host has none). */
function namesLoopback(host: string | undefined, port: number | undefined): boolean {
  const match = host === undefined ? null : /^(\[[^\]]*\]|[^:]*)(?::(\d{1,5}))?$/.exec(host);
  if (!match || !LOOPBACK_NAME.test(match[1] ?? "")) return false;
  return port === undefined || Number(match[2] ?? 80) === port;
}

function isJson(contentType: string | undefined): boolean {
  return contentType?.split(";")[0]?.trim().toLowerCase() === "application/json";
}
