// A request without an Authorization header is answered 401, whatever it asked.

import { authMissingHeader as check } from "../../checks/auth-missing-header.js";
import { fromCheck, rule } from "./types.js";

export const authMissingHeader = rule({
  ...fromCheck(check),
  judges: "every request without an Authorization header: answered 401",
  on: "answer",
  judge: ({ auth, answer }) => {
    if (!auth.recorded || auth.scheme !== undefined) return undefined;
    return answer.status === 401
      ? null
      : `without Authorization, ${answer.method} ${answer.url} answered ${answer.status}; expected 401`;
  },
});
