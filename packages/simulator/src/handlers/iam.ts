import { type Handler, ok } from "./types.js";

export const getCurrentClient: Handler = ({ caller, store }) => {
  const client = store.world.clients.find((c) => c.id === caller.clientId);
  if (!client) throw new Error(`client ${caller.clientId} of a valid token is missing from the world`);
  return ok({ id: client.id, email: client.email, status: client.status });
};
