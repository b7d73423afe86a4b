// Offset pagination's filters on the reseller's quota limit requests: `status` (repeated) and
// `client_id` return exactly the matching requests. What holds for every offset list (count, page
// length, the walk, bounds, default) is a check of the registry (pagination.offset.*).

import type { components } from "@platform-api/spec/generated/openapi";
import type { Request } from "../src/api.js";
import { isRecord } from "../src/json.js";
import { walkOffset } from "../src/lists.js";
import { largestPage, offsetLists } from "../src/offset.js";
import { check, scenario } from "../src/scenario.js";
import { queryValues } from "../src/spec.js";

type QuotaLimitRequest = components["schemas"]["QuotaLimitRequest"];
const QUOTA_REQUESTS = "/cloud/reseller/v1/limits_request";
const quotaRequests = offsetLists().find((l) => l.operation.path === QUOTA_REQUESTS);
const statuses = queryValues<components["schemas"]["QuotaLimitRequestStatus"]>(
  "listQuotaLimitRequests",
  "status",
);

scenario(
  {
    id: "pagination.offset.filters.listQuotaLimitRequests",
    title: "listQuotaLimitRequests: status (repeated) and client_id filter, and count counts the matches",
    severity: "must",
    operation: "listQuotaLimitRequests",
    needs: ["reseller", "state"],
    calls: [
      "GET (every page)",
      "GET ?status=<each>",
      `GET ?status=${statuses[0]}&status=${statuses.at(-1)}`,
      "GET ?client_id=<one>",
    ],
  },
  async ({ http, skip }) => {
    if (!quotaRequests) return skip(`GET ${QUOTA_REQUESTS} is not an offset list in the spec`);
    const list = quotaRequests;
    const request: Request = { method: "GET", path: QUOTA_REQUESTS, auth: "reseller" };
    const largest = largestPage(list);
    const { items, complete } = await walkOffset(http, list, request, largest, 5);
    if (!complete)
      return skip("more than 5 pages of quota limit requests: too many to compare filters against");
    const all = items.filter(isRecord) as Partial<QuotaLimitRequest>[];
    const cases: [Request["query"], (r: Partial<QuotaLimitRequest>) => boolean, string][] = [];
    for (const status of statuses) cases.push([{ status }, (r) => r.status === status, `status=${status}`]);
    const two = [statuses[0], statuses.at(-1)].filter((s) => s !== undefined);
    cases.push([
      { status: two },
      (r) => r.status !== undefined && two.includes(r.status),
      two.map((s) => `status=${s}`).join("&"),
    ]);
    const clientId = all[0]?.client_id;
    if (clientId !== undefined)
      cases.push([{ client_id: clientId }, (r) => r.client_id === clientId, `client_id=${clientId}`]);
    const wrong: string[] = [];
    for (const [query, matches, label] of cases) {
      const { items: got } = await walkOffset(http, list, { ...request, query }, largest, 5);
      const stray = (got.filter(isRecord) as Partial<QuotaLimitRequest>[]).filter((r) => !matches(r));
      const expected = all.filter(matches).length;
      if (stray.length > 0)
        wrong.push(
          `${label} returned ${stray.length} non-matching (e.g. id ${stray[0]?.id}, status ${stray[0]?.status}, client ${stray[0]?.client_id})`,
        );
      else if (got.length !== expected)
        wrong.push(`${label} returned ${got.length} items; ${expected} of all match`);
    }
    check(wrong.length === 0, wrong.join("; "));
  },
);
