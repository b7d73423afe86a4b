import { createPlatformClient, type PlatformClientOf } from "../client.js";
import type { paths } from "../generated/iam.js";
import type { ClientOptions } from "../options.js";

export * from "../errors.js";
export type { components, operations, paths } from "../generated/iam.js";
export type { ClientOptions } from "../options.js";

/** A client typed to the iam product's operations only. */
export type IamClient = PlatformClientOf<paths>;

/** Creates a client typed to the iam product's operations only. */
export function createClient(options?: ClientOptions): IamClient {
  return createPlatformClient<paths>(options);
}
