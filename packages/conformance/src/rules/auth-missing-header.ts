// A request without an Authorization header is answered 401, whatever it asked: the seed's rule for
// every call. The active run sends one to every read (writes are left out: a server that wrongly
// accepted one would create or change something).

import { rule } from "./types.js";

export const authMissingHeader = rule({
  id: "auth.missing-header",
  severity: "must",
  refuses: true,
  perOperation: true,
  appliesTo: "every read (GET) operation",
  judges: "every request without an Authorization header: answered 401",
  on: "answer",
  applies: (operation) => operation.method === "get",
  title: (operation) => `${operation.operationId} answers 401 without an Authorization header`,
  // Any value of the right type will do for the path: the run's own are not needed.
  needs: () => [],
  judge: ({ auth, answer }) => {
    if (!auth.recorded || auth.scheme !== undefined) return undefined;
    return answer.status === 401
      ? null
      : `without Authorization, ${answer.method} ${answer.url} answered ${answer.status}; expected 401`;
  },
});
