// Several projects of the default client (one default), and the other client's default project,
// created some weeks apart; none deleted.

import type { Draft, Project } from "../types.js";
import { DEFAULT_CLIENT_ID, OTHER_CLIENT_ID } from "./clients.js";

const created = (day: number) => new Date(Date.UTC(2024, 0, 1) + day * 86_400_000).toISOString();

export function projects(): Draft<Project, "id" | "name" | "client_id">[] {
  return [
    {
      id: 1,
      name: "default",
      is_default: true,
      state: "ACTIVE",
      client_id: DEFAULT_CLIENT_ID,
      created_at: created(0),
    },
    {
      id: 2,
      name: "staging",
      is_default: false,
      state: "ACTIVE",
      client_id: DEFAULT_CLIENT_ID,
      created_at: created(40),
    },
    {
      id: 3,
      name: "ml-training",
      is_default: false,
      state: "ACTIVE",
      client_id: DEFAULT_CLIENT_ID,
      created_at: created(95),
      description: "GPU training runs",
    },
    {
      id: 4,
      name: "default",
      is_default: true,
      state: "ACTIVE",
      client_id: OTHER_CLIENT_ID,
      created_at: created(12),
    },
  ];
}
