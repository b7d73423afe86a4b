// Storage notification settings of two clients, with the threshold field each event name is
// meant to use (the spec says bytes or count "follows the field names").

import type { StorageNotificationEntry } from "../types.js";
import { DEFAULT_CLIENT_ID, OTHER_CLIENT_ID } from "./clients.js";

export function storageNotificationEvents(): StorageNotificationEntry[] {
  return [
    {
      client_id: DEFAULT_CLIENT_ID,
      event: { name: "reaching_used_space", bytes: 1_000_000_000_000, storage_name: "media" },
    },
    {
      client_id: DEFAULT_CLIENT_ID,
      event: { name: "reaching_used_requests", count: 5_000_000, storage_name: "media" },
    },
    {
      client_id: OTHER_CLIENT_ID,
      event: { name: "reaching_files_quantity", count: 1_000_000, bucket_name: "logs" },
    },
  ];
}
