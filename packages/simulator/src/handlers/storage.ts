import { ApiError } from "../errors.js";
import type { Handler } from "./types.js";

/** Stores the event configuration per client and event name; the seed shows no body and no exact status. */
export const putStorageNotificationEvent: Handler<"putStorageNotificationEvent"> = ({
  query,
  body,
  caller,
  store,
}) => {
  const own = store.clientOf(caller);
  const clientId = query.client_id ?? own;
  if (clientId !== own)
    throw new ApiError(403, `This token belongs to client ${own} and cannot configure client ${clientId}.`);
  const events = store.world.storage_notification_events;
  const index = events.findIndex((e) => e.client_id === clientId && e.event.name === body.name);
  const entry = { client_id: clientId, event: body };
  if (index >= 0) events[index] = entry;
  else events.push(entry);
  return { status: 204 };
};
