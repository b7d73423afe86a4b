import { type Handler, offsetPage } from "./types.js";

export const listQuotaLimitRequests: Handler<"listQuotaLimitRequests"> = ({ query, caller, store }) => {
  const clients = new Set(
    store.world.clients.filter((c) => c.reseller_id === caller.resellerId).map((c) => c.id),
  );
  const { status: statuses, client_id } = query;
  const requests = store.world.quota_limit_requests.filter(
    (r) =>
      clients.has(r.client_id) &&
      (client_id === undefined || r.client_id === client_id) &&
      (statuses === undefined || statuses.includes(r.status)),
  );
  return { status: 200, body: offsetPage(requests, query) };
};
