import { createPlatformClient, type PlatformClientOf } from "../client.js";
import type { paths } from "../generated/streaming.js";
import type { ClientOptions } from "../options.js";

export * from "../errors.js";
export type { components, operations, paths } from "../generated/streaming.js";
export type { ClientOptions } from "../options.js";

/** A client typed to the streaming product's operations only. */
export type StreamingClient = PlatformClientOf<paths>;

/** Creates a client typed to the streaming product's operations only. */
export function createClient(options?: ClientOptions): StreamingClient {
  return createPlatformClient<paths>(options);
}
