// Three clients of one reseller: the default client owns most of the world, the other client
// proves that one client never sees another's records, the third is on trial.

import type { Client, Draft } from "../types.js";

export const DEFAULT_CLIENT_ID = 300112;
export const OTHER_CLIENT_ID = 300113;
export const TRIAL_CLIENT_ID = 300114;
export const DEFAULT_RESELLER_ID = 500;
/** The users the client tokens act for (a task's user_id, the current client's currentUser). */
export const DEFAULT_USER_ID = 48102;
export const READ_ONLY_USER_ID = 48117;
export const OTHER_USER_ID = 51230;

export const CLIENT_IDS = [DEFAULT_CLIENT_ID, OTHER_CLIENT_ID, TRIAL_CLIENT_ID] as const;

export function clients(): Draft<Client, "id" | "email" | "status">[] {
  return [
    {
      id: DEFAULT_CLIENT_ID,
      email: "ops@example.com",
      status: "active",
      reseller_id: DEFAULT_RESELLER_ID,
      name: "Example Ops",
      companyName: "Example Ops Ltd",
      currentUser: DEFAULT_USER_ID,
    },
    {
      id: OTHER_CLIENT_ID,
      email: "platform@example.org",
      status: "active",
      reseller_id: DEFAULT_RESELLER_ID,
      name: "Example Platform",
      companyName: "Example Platform GmbH",
      currentUser: OTHER_USER_ID,
    },
    {
      id: TRIAL_CLIENT_ID,
      email: "billing@example.net",
      status: "trial",
      reseller_id: DEFAULT_RESELLER_ID,
      name: "Example Billing",
      companyName: "Example Billing SA",
    },
  ];
}
