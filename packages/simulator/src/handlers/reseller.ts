import { type Handler, offsetPage } from "./types.js";

/** A reseller sees the requests of its own clients; the query's filters are the query rules'. */
export const listQuotaLimitRequests: Handler<"listQuotaLimitRequests"> = ({
  query,
  caller,
  store,
  select,
}) => {
  const clients = new Set(
    store.world.clients.filter((c) => c.reseller_id === caller.resellerId).map((c) => c.id),
  );
  const requests = select(store.world.quota_limit_requests.filter((r) => clients.has(r.client_id)));
  return { status: 200, body: offsetPage(requests, query) };
};
