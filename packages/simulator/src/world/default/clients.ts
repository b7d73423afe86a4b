// Three clients of one reseller: the default client owns most of the world, the other client
// proves that one client never sees another's records, the third is on trial.

import type { Client } from "../types.js";

export const DEFAULT_CLIENT_ID = 300112;
export const OTHER_CLIENT_ID = 300113;
export const TRIAL_CLIENT_ID = 300114;
export const DEFAULT_RESELLER_ID = 500;

export const CLIENT_IDS = [DEFAULT_CLIENT_ID, OTHER_CLIENT_ID, TRIAL_CLIENT_ID] as const;

export function clients(): Client[] {
  return [
    { id: DEFAULT_CLIENT_ID, email: "ops@example.com", status: "active", reseller_id: DEFAULT_RESELLER_ID },
    {
      id: OTHER_CLIENT_ID,
      email: "platform@example.org",
      status: "active",
      reseller_id: DEFAULT_RESELLER_ID,
    },
    { id: TRIAL_CLIENT_ID, email: "billing@example.net", status: "trial", reseller_id: DEFAULT_RESELLER_ID },
  ];
}
