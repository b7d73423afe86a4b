// Auth: the token in its security scheme's header after the scheme's prefix (both read from the
// spec model) on every call, the header name in any case; a malformed or unknown token is 401; a
// token without permission (a client token on the reseller API) is 403.
// A missing header on every read operation is a check of the registry (auth.missing-header.*).

import { expectStatus } from "../src/active/lists.js";
import { scenario, step } from "../src/active/scenario.js";
import { clientKeyScheme } from "../src/facts/tokens.js";

const ME = "/iam/clients/me";
const { headerName, tokenPrefix } = clientKeyScheme();
/** The scheme's word alone, as the description names it (the prefix without its space). */
const word = tokenPrefix.trim();

scenario(
  {
    id: "auth.wrong-scheme",
    refuses: true,
    title: `a token sent as Bearer instead of ${word} is refused with 401`,
    severity: "must",
    operation: "getCurrentClient",
    needs: ["real-auth"],
    calls: [`GET /iam/clients/me with ${headerName}: Bearer <token>`],
  },
  async ({ http, run }) => {
    expectStatus(
      await http.call({
        method: "GET",
        path: ME,
        auth: { header: headerName, value: `Bearer ${run.target.apiKey}` },
      }),
      401,
    );
  },
);

scenario(
  {
    id: "auth.malformed-header",
    refuses: true,
    title: `the word ${word} without a token is refused with 401`,
    severity: "must",
    operation: "getCurrentClient",
    needs: ["real-auth"],
    calls: [`GET /iam/clients/me with ${headerName}: ${word}`],
  },
  async ({ http }) => {
    expectStatus(
      await http.call({ method: "GET", path: ME, auth: { header: headerName, value: word } }),
      401,
    );
  },
);

scenario(
  {
    id: "auth.wrong-token",
    refuses: true,
    title: "an unknown token is refused with 401",
    severity: "must",
    operation: "getCurrentClient, listRegions",
    needs: ["real-auth"],
    calls: ["GET /iam/clients/me with an unknown token", "GET /cloud/v1/regions with an unknown token"],
  },
  async ({ http }) => {
    const auth = { header: headerName, value: `${tokenPrefix}1$conformance-unknown-${crypto.randomUUID()}` };
    expectStatus(await http.call({ method: "GET", path: ME, auth }), 401);
    expectStatus(await http.call({ method: "GET", path: "/cloud/v1/regions", auth }), 401);
  },
);

scenario(
  {
    id: "auth.header-name-case-insensitive",
    title: "the header name is accepted in lower and upper case",
    severity: "must",
    operation: "getCurrentClient",
    calls: [
      `GET /iam/clients/me with ${headerName.toLowerCase()}: ${tokenPrefix}<token>`,
      `… with ${headerName.toUpperCase()}: ${tokenPrefix}<token>`,
    ],
  },
  async ({ http, run }) => {
    for (const header of [headerName.toLowerCase(), headerName.toUpperCase(), headerName]) {
      expectStatus(
        await http.call({
          method: "GET",
          path: ME,
          auth: { header, value: `${tokenPrefix}${run.target.apiKey}` },
        }),
        200,
      );
    }
  },
);

scenario(
  {
    id: "auth.token-with-dollar",
    title: "a token containing $ is accepted as sent",
    severity: "must",
    operation: "getCurrentClient",
    calls: ["GET /iam/clients/me with the token (it contains $)"],
  },
  async ({ http, run, skip }) => {
    if (!run.target.apiKey.includes("$")) return skip(`the token in ${run.keySources.apiKey} has no $`);
    expectStatus(await http.call({ method: "GET", path: ME }), 200);
  },
);

// The client token on the reseller API: judged by auth.reseller.client-token-forbidden.
step(
  {
    title: "a client token on the reseller API",
    needs: ["real-auth"],
    results: ["auth.reseller.client-token-forbidden"],
  },
  async ({ http }) => {
    await http.call({ method: "GET", path: "/cloud/reseller/v1/limits_request", query: { limit: 1 } });
  },
);

scenario(
  {
    id: "auth.reseller.reseller-token-accepted",
    title: "the reseller token opens the reseller API",
    severity: "must",
    operation: "listQuotaLimitRequests",
    needs: ["reseller"],
    calls: ["GET /cloud/reseller/v1/limits_request with the reseller token"],
  },
  async ({ http }) => {
    expectStatus(
      await http.call({
        method: "GET",
        path: "/cloud/reseller/v1/limits_request",
        query: { limit: 1 },
        auth: "reseller",
      }),
      200,
    );
  },
);
