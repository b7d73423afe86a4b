// The seed: a token without permission for the operation gets 403, a missing, wrong or expired one
// 401. The client token, sent to the reseller API, has standing and no permission: the refusal is
// 403, and an answer 2xx is the reseller API open to every client.
//
// An active run knows which of its keys it sent (ObservedExchange.tokenRole), and observe and
// verify know the keys set in the usual variables: every answer to the client token is judged.
// Other traffic does not say: a token the client API accepted and the reseller API answers 2xx may
// be the reseller's own (the seed leaves its token's format and scopes open), so only a refusal is
// judged there, once the exchanges showed the token accepted (an unknown or expired token is never
// taken for one that lacks permission).

import { keyFor } from "../facts/operations.js";
import { requestRate } from "../facts/rate.js";
import { KEY_VARIABLES } from "../shared/conformance-options.js";
import { rule } from "./types.js";

export const authResellerClientTokenForbidden = rule({
  id: "auth.reseller.client-token-forbidden",
  severity: "must",
  perOperation: false,
  refuses: true,
  appliesTo: "every operation of the reseller API",
  judges:
    "a reseller operation answering the client token: 403 (not 2xx, not 401); in traffic, a refusal of a token the client API accepted",
  on: "answer",
  applies: (operation) => keyFor(operation) === "reseller",
  title: () => "a client token on the reseller API is refused with 403 (it is valid, without permission)",
  needs: () => ["real-auth"],
  unjudged: () =>
    `no reseller operation answered a token known to be the client's, nor refused one the client API had accepted; a 2xx on the reseller API is judged only where the tokens' roles are known (an active run knows which key it sent): in observe and verify they are not known unless the keys are set in ${KEY_VARIABLES.apiKeyEnv} and ${KEY_VARIABLES.resellerApiKeyEnv}, and a client token let in cannot be told from the reseller token`,
  judge: ({ auth, answer }) => {
    if (!auth.token || answer.status === requestRate().exceededStatus || answer.status >= 500)
      return undefined;
    const { status, method, url } = answer;
    if (auth.role !== undefined) {
      if (auth.role !== "client") return undefined;
      if (status === 403) return null;
      return status >= 200 && status < 300
        ? `the client token (${auth.token}) was let in: ${method} ${url} answered ${status}; a client token on the reseller API gets 403`
        : `the client token (${auth.token}) was refused by ${method} ${url} with ${status}; a valid token without permission gets 403`;
    }
    if (status !== 401 && status !== 403) return undefined;
    if (!auth.acceptedBy.has("client") || auth.acceptedBy.has("reseller")) return undefined;
    return status === 403
      ? null
      : `${auth.token}, accepted earlier on the client API, was refused by ${method} ${url} with 401; a valid token without permission gets 403`;
  },
});
