import type { Client } from "openapi-fetch";
import { createPlatformClient } from "./client.js";
import type { paths } from "./generated/openapi.js";
import type { ClientOptions } from "./options.js";

export { ClientConfigError } from "./errors.js";
export { DEFAULT_BASE_URL } from "./generated/conventions.js";
export type { components, operations, paths } from "./generated/openapi.js";
export type { ClientOptions } from "./options.js";

/** The typed client of the whole platform API. */
export type PlatformClient = Client<paths, "application/json">;

/**
 * Creates a typed client of the whole platform API: `client.GET("/cloud/v1/regions", …)` answers
 * `{ data, error, response }` exactly as openapi-fetch does.
 */
export function createClient(options?: ClientOptions): PlatformClient {
  return createPlatformClient<paths>(options);
}
