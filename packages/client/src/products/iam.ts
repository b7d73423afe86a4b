import type { Client } from "openapi-fetch";
import { createPlatformClient } from "../client.js";
import type { paths } from "../generated/iam.js";
import type { ClientOptions } from "../options.js";

export { ClientConfigError } from "../errors.js";
export type { components, operations, paths } from "../generated/iam.js";
export type { ClientOptions } from "../options.js";

/** A client typed to the iam product's operations only. */
export type IamClient = Client<paths, "application/json">;

/** Creates a client typed to the iam product's operations only. */
export function createClient(options?: ClientOptions): IamClient {
  return createPlatformClient<paths>(options);
}
