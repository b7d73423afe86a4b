// The seed: a token without permission for the operation gets 403, a missing, wrong or expired one
// 401. A token the platform accepted on the client API, sent to the reseller API, has standing: the
// refusal is 403. Judged only once the exchanges showed the token accepted, so an unknown or
// expired token is never taken for one that lacks permission.

import { keyFor } from "../operations.js";
import { rule } from "./types.js";

export const authResellerClientTokenForbidden = rule({
  id: "auth.reseller.client-token-forbidden",
  severity: "must",
  perOperation: false,
  appliesTo: "every operation of the reseller API",
  judges: "a reseller operation refusing a token the platform accepted on the client API: 403, not 401",
  on: "answer",
  applies: (operation) => keyFor(operation) === "reseller",
  title: () => "a client token on the reseller API is refused with 403 (it is valid, without permission)",
  needs: () => ["real-auth"],
  judge: ({ auth, answer }) => {
    if (answer.status !== 401 && answer.status !== 403) return undefined;
    if (!auth.token || !auth.acceptedBy.has("client") || auth.acceptedBy.has("reseller")) return undefined;
    return answer.status === 403
      ? null
      : `${auth.token}, accepted earlier on the client API, was refused by ${answer.method} ${answer.url} with 401; a valid token without permission gets 403`;
  },
});
