import createFetchClient, { type Client, type Middleware } from "openapi-fetch";
import { type ClientOptions, type ResolvedOptions, resolveOptions, tokenFor } from "./options.js";

/** Sets `Authorization: APIKey <token>`, choosing the reseller token for reseller operations. */
function authMiddleware(resolved: ResolvedOptions): Middleware {
  const basePath = new URL(resolved.baseUrl).pathname.replace(/\/+$/, "");
  return {
    onRequest({ request }) {
      const pathname = new URL(request.url).pathname.slice(basePath.length);
      request.headers.set("Authorization", `APIKey ${tokenFor(resolved, pathname)}`);
      return request;
    },
  };
}

/** A typed client over the given `paths` (the whole API, or one product's). */
export function createPlatformClient<Paths extends {}>(
  options?: ClientOptions,
): Client<Paths, "application/json"> {
  const resolved = resolveOptions(options);
  const client = createFetchClient<Paths, "application/json">({
    baseUrl: resolved.baseUrl,
    headers: resolved.headers,
    ...(resolved.fetch ? { fetch: resolved.fetch } : {}),
  });
  client.use(authMiddleware(resolved));
  return client;
}
