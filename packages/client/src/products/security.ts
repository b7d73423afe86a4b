import { createPlatformClient, type PlatformClientOf } from "../client.js";
import type { paths } from "../generated/security.js";
import type { ClientOptions } from "../options.js";

export * from "../errors.js";
export type { components, operations, paths } from "../generated/security.js";
export type { ClientOptions } from "../options.js";

/** A client typed to the security product's operations only. */
export type SecurityClient = PlatformClientOf<paths>;

/** Creates a client typed to the security product's operations only. */
export function createClient(options?: ClientOptions): SecurityClient {
  return createPlatformClient<paths>(options);
}
