// Several projects of the default client (one default), and the other client's default project.

import type { Project } from "../types.js";
import { DEFAULT_CLIENT_ID, OTHER_CLIENT_ID } from "./clients.js";

export function projects(): Project[] {
  return [
    { id: 1, name: "default", is_default: true, state: "ACTIVE", client_id: DEFAULT_CLIENT_ID },
    { id: 2, name: "staging", is_default: false, state: "ACTIVE", client_id: DEFAULT_CLIENT_ID },
    { id: 3, name: "ml-training", is_default: false, state: "ACTIVE", client_id: DEFAULT_CLIENT_ID },
    { id: 4, name: "default", is_default: true, state: "ACTIVE", client_id: OTHER_CLIENT_ID },
  ];
}
