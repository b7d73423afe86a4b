// One token of each kind the auth rules tell apart: client, reseller, read-only, expired, and a
// second client's.

import type { TokenEntry } from "../types.js";
import {
  DEFAULT_CLIENT_ID,
  DEFAULT_RESELLER_ID,
  DEFAULT_USER_ID,
  OTHER_CLIENT_ID,
  OTHER_USER_ID,
  READ_ONLY_USER_ID,
} from "./clients.js";

/** Tokens of the default world. Like real tokens they contain a `$` (quote them in a shell). */
export const DEFAULT_TOKENS = {
  client: "300112$sim-client-7c1f0d9a4e",
  reseller: "500$sim-reseller-2b8e6a1c55",
  readOnly: "300112$sim-read-only-5d3a9e07bb",
  expired: "300112$sim-expired-91c4f2e6d0",
  otherClient: "300113$sim-other-client-a4e1b7c9",
} as const;

export function tokens(): TokenEntry[] {
  return [
    {
      token: DEFAULT_TOKENS.client,
      kind: "client",
      owner_id: DEFAULT_CLIENT_ID,
      label: "client",
      user_id: DEFAULT_USER_ID,
    },
    { token: DEFAULT_TOKENS.reseller, kind: "reseller", owner_id: DEFAULT_RESELLER_ID, label: "reseller" },
    {
      token: DEFAULT_TOKENS.readOnly,
      kind: "client",
      owner_id: DEFAULT_CLIENT_ID,
      read_only: true,
      label: "read-only",
      user_id: READ_ONLY_USER_ID,
    },
    {
      token: DEFAULT_TOKENS.expired,
      kind: "client",
      owner_id: DEFAULT_CLIENT_ID,
      expires_at: "2026-01-01T00:00:00Z",
      label: "expired",
      user_id: DEFAULT_USER_ID,
    },
    {
      token: DEFAULT_TOKENS.otherClient,
      kind: "client",
      owner_id: OTHER_CLIENT_ID,
      label: "other client",
      user_id: OTHER_USER_ID,
    },
  ];
}
