import type { Handler } from "./types.js";

export const getCurrentClient: Handler<"getCurrentClient"> = ({ caller, store }) => {
  const client = store.world.clients.find((c) => c.id === caller.clientId);
  if (!client) throw new Error(`client ${caller.clientId} of a valid token is missing from the world`);
  return { status: 200, body: store.served("ClientAccount", client, ["reseller_id"]) };
};
