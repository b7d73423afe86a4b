// A redirect is never followed: the call fails at once with RedirectError naming the status and the
// Location, the request is sent once (no retry storm, whatever the method), and nothing, least of
// all the Authorization header, goes to the Location.
import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import { ApiError, createClient, paginate, RedirectError } from "../src/index.js";
import { KEY, startScriptedServer } from "./scripted-server.js";

/** The API server, answering every request with the redirect its headers ask for, and another origin. */
async function redirecting() {
  const elsewhere = await startScriptedServer(() => ({ body: { count: 0, results: [], tasks: [] } }));
  const api = await startScriptedServer((request) => {
    const status = Number(request.headers["x-redirect"]);
    const to = request.headers["x-to"] === "elsewhere" ? elsewhere.url : "";
    return { status, headers: { location: `${to}/moved${request.url}` }, text: "moved" };
  });
  return { api, elsewhere };
}

const client = (baseUrl: string, status: number, to: "same origin" | "elsewhere") =>
  createClient({
    apiKey: KEY,
    baseUrl,
    headers: { "x-redirect": String(status), "x-to": to },
    rateLimit: false,
    retry: { initialDelayMs: 5 },
  });

const calls = {
  POST: (c: ReturnType<typeof client>) =>
    c.POST("/cloud/v1/volumes/{project_id}/{region_id}", {
      params: { path: { project_id: 1, region_id: 76 } },
      body: { name: "data", source: "new-volume", type_name: "standard", size: 10 },
    }),
  PUT: (c: ReturnType<typeof client>) =>
    c.PUT("/storage/notifications/v1/event", { body: { name: "reaching_used_space" } }),
  GET: (c: ReturnType<typeof client>) => c.GET("/cloud/v1/regions", { params: { query: { limit: 10 } } }),
};
const paths = {
  POST: "/cloud/v1/volumes/1/76",
  PUT: "/storage/notifications/v1/event",
  GET: "/cloud/v1/regions?limit=10",
};

describe("redirects", () => {
  for (const status of [307, 308] as const)
    for (const method of ["POST", "PUT", "GET"] as const)
      for (const to of ["same origin", "elsewhere"] as const)
        it(`${method} answered ${status} to ${to}: RedirectError at once, sent once, nothing sent on`, async () => {
          const { api, elsewhere } = await redirecting();
          const location = `${to === "elsewhere" ? elsewhere.url : api.url}/moved${paths[method]}`;
          const error = await calls[method](client(api.url, status, to)).catch((e) => e);
          expect(error).toBeInstanceOf(RedirectError);
          expect(error).toBeInstanceOf(ApiError);
          expect(error).toMatchObject({ status, method, path: paths[method], location, attempts: 1 });
          expect(error.message).toBe(
            `${method} ${paths[method]} was redirected (${status}) to ${location}; the client does not follow redirects: check baseUrl`,
          );
          expect(JSON.parse(JSON.stringify(error))).toMatchObject({ status, location });
          expect(api.requests.map((r) => `${r.method} ${r.url}`)).toEqual([`${method} ${paths[method]}`]);
          expect(elsewhere.requests).toHaveLength(0);
        });

  it("makes the helpers throw RedirectError too, with the Location redacted of the key", async () => {
    const api = await startScriptedServer(() => ({
      status: 302,
      headers: { location: `https://login.example/?token=${encodeURIComponent(KEY)}` },
    }));
    const c = createClient({ apiKey: KEY, baseUrl: api.url, rateLimit: false });
    const error = await paginate(c, "/cloud/v1/regions")
      .toArray()
      .catch((e) => e);
    expect(error).toBeInstanceOf(RedirectError);
    expect(error).toMatchObject({ status: 302, location: "https://login.example/?token=***" });
    const said = [String(error), error.stack, JSON.stringify(error), inspect(error, { showHidden: true })];
    for (const text of said) expect(text.includes(KEY.slice(KEY.indexOf("$") + 1))).toBe(false);
    expect(api.requests).toHaveLength(1);
  });
});
