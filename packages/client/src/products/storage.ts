import { createPlatformClient, type PlatformClientOf } from "../client.js";
import type { paths } from "../generated/storage.js";
import type { ClientOptions } from "../options.js";

export * from "../errors.js";
export type { components, operations, paths } from "../generated/storage.js";
export type { ClientOptions } from "../options.js";

/** A client typed to the storage product's operations only. */
export type StorageClient = PlatformClientOf<paths>;

/** Creates a client typed to the storage product's operations only. */
export function createClient(options?: ClientOptions): StorageClient {
  return createPlatformClient<paths>(options);
}
