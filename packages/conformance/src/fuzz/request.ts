// A request fuzz generated, as data: what is sent, what report.json keeps as its reproducer, what
// `fuzz --replay` sends again, and its curl command. The token is never part of it: the request
// names which key it uses (the client's or the reseller's), and the curl command reads it from the
// key's environment variable.

import { type OperationModel, operationById } from "@platform-api/spec";
import type { Request } from "../facts/api.js";
import { keyFor } from "../facts/operations.js";
import { specModel } from "../facts/spec.js";
import { clientKeyScheme } from "../facts/tokens.js";
import { authorizationWord, curlCommand } from "../shared/curl.js";
import type { FuzzRequest, Phase } from "../shared/finding.js";

export const PHASES: readonly Phase[] = ["coverage", "fuzz", "stateful"];

export function newRequest(
  operation: OperationModel,
  params: Record<string, string>,
  fromRun: string[],
): FuzzRequest {
  return {
    operationId: operation.operationId,
    method: operation.method.toUpperCase(),
    path: operation.path,
    params,
    fromRun,
    query: [],
    auth: keyFor(operation),
  };
}

/**
 * Path and query as sent, relative to the base URL: the path is the operation's template from the
 * spec, never a string a report file carried (a replayed file's path only has to name it).
 */
export function urlOf(request: FuzzRequest): string {
  const path = operationById(specModel(), request.operationId).path.replace(
    /\{([^}]+)\}/g,
    (_, name: string) => encodeURIComponent(request.params[name] ?? ""),
  );
  const query = new URLSearchParams(request.query).toString();
  return query === "" ? path : `${path}?${query}`;
}

/** The request for the suite's HTTP layer. */
export function httpRequestOf(request: FuzzRequest): Request {
  const query = new URLSearchParams(request.query).toString();
  return {
    method: request.method as Request["method"],
    path: operationById(specModel(), request.operationId).path,
    params: request.params,
    rawQuery: query,
    ...(request.body === undefined ? {} : { body: request.body }),
    auth: request.auth,
    ...(request.unknownParameter === undefined ? {} : { unknownParameter: request.unknownParameter }),
  };
}

/**
 * The request as a curl command: the token as "$VARIABLE" (the key's environment variable), never
 * its value. Every word that is not the command's own is shell-quoted, the method too: a report is
 * shared, and its reader pastes this.
 */
export function curlOf(request: FuzzRequest, baseUrl: string, keyVariable: string): string {
  return curlCommand({
    method: request.method,
    url: `${baseUrl.replace(/\/+$/, "")}${urlOf(request)}`,
    headers: [authorizationWord(keyVariable, clientKeyScheme())],
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
  });
}

/** A short line for a request: method, path and query, and the body's size. */
export function requestLine(request: FuzzRequest): string {
  const body =
    request.body === undefined ? "" : ` with a ${JSON.stringify(request.body).length}-character body`;
  return `${request.method} ${urlOf(request)}${body}`;
}
