// Every operation of the spec, by operationId. The server refuses to start when an operation of
// the spec has no handler here, or a handler names an operation the spec does not have.
import * as cloud from "./cloud.js";
import * as iam from "./iam.js";
import * as reseller from "./reseller.js";
import * as security from "./security.js";
import * as storage from "./storage.js";
import * as streaming from "./streaming.js";
import type { Handler } from "./types.js";

export const HANDLERS: Readonly<Record<string, Handler>> = {
  ...cloud,
  ...iam,
  ...reseller,
  ...streaming,
  ...security,
  ...storage,
};

export type { ApiRequest, ApiResponse, Handler } from "./types.js";
