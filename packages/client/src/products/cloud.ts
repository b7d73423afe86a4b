import { createPlatformClient, type PlatformClientOf } from "../client.js";
import type { paths } from "../generated/cloud.js";
import type { ClientOptions } from "../options.js";

export * from "../errors.js";
export type { components, operations, paths } from "../generated/cloud.js";
export type { ClientOptions } from "../options.js";

/** A client typed to the cloud product's operations only. */
export type CloudClient = PlatformClientOf<paths>;

/** Creates a client typed to the cloud product's operations only. */
export function createClient(options?: ClientOptions): CloudClient {
  return createPlatformClient<paths>(options);
}
