import { type Handler, offsetPage, ok } from "./types.js";

export const listQuotaLimitRequests: Handler = ({ query, caller, store }) => {
  const clients = new Set(
    store.world.clients.filter((c) => c.reseller_id === caller.resellerId).map((c) => c.id),
  );
  const statuses: string[] | undefined = query.status;
  const requests = store.world.quota_limit_requests.filter(
    (r) =>
      clients.has(r.client_id as number) &&
      (query.client_id === undefined || r.client_id === query.client_id) &&
      (statuses === undefined || statuses.includes(r.status as string)),
  );
  return ok(offsetPage(requests, query));
};
