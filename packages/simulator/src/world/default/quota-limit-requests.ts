// Quota limit requests of all three clients in every status of the spec, over more than one page
// of the smaller limits: every fourth asks for global limits, the others for regional ones.

import type { components } from "@platform-api/spec/generated/openapi";
import type { Random } from "../../random.js";
import { enumOf } from "../spec-facts.js";
import { CLIENT_IDS } from "./clients.js";
import { EPOCH } from "./epoch.js";
import type { RegionDraft } from "./regions.js";

type QuotaLimitRequest = components["schemas"]["QuotaLimitRequest"];
type RegionalLimits = components["schemas"]["RegionalLimits"];

const DAY_MS = 86_400_000;
const REASONS = ["a launch", "load tests", "a migration", "training runs"];

export function quotaLimitRequests(doc: object, regions: RegionDraft[], random: Random): QuotaLimitRequest[] {
  const statuses = enumOf(doc, "QuotaLimitRequestStatus");
  const requests: QuotaLimitRequest[] = [];
  for (let i = 0; i < 24; i++) {
    const client_id = CLIENT_IDS[i % CLIENT_IDS.length] as number;
    const status = statuses[Math.floor(i / 3) % statuses.length] as QuotaLimitRequest["status"];
    const created = EPOCH - (24 - i) * DAY_MS;
    const region_id = (regions[i % regions.length] as RegionDraft).id;
    const requested_limits: QuotaLimitRequest["requested_limits"] =
      i % 4 === 0
        ? { global_limits: { project_count_limit: 5 + i, keypair_count_limit: 20 } }
        : {
            regional_limits: [
              withBaremetalGpuTotal({
                region_id,
                cpu_count_limit: 64 * random.int(1, 8),
                ram_limit: 131_072 * random.int(1, 4),
                volume_size_limit: 1000 * random.int(1, 10),
                baremetal_gpu_a100_count_limit: i % 2,
                baremetal_gpu_h100_count_limit: 1,
                baremetal_gpu_h200_count_limit: 0,
                baremetal_gpu_l40s_count_limit: 2,
              }),
            ],
          };
    requests.push({
      id: 1000 + i,
      client_id,
      requested_limits,
      description: i % 5 === 0 ? null : `Capacity for ${REASONS[i % REASONS.length]}`,
      status,
      created_at: new Date(created).toISOString(),
      // An open request has not been updated yet (the seed leaves when updated_at is set open).
      updated_at: status === "in progress" ? null : new Date(created + 3_600_000).toISOString(),
    });
  }
  return requests;
}

/** The deprecated total is always the sum of the four bare metal GPU limits (the seed says so). */
function withBaremetalGpuTotal(limits: RegionalLimits): RegionalLimits {
  const {
    baremetal_gpu_a100_count_limit: a100 = 0,
    baremetal_gpu_h100_count_limit: h100 = 0,
    baremetal_gpu_h200_count_limit: h200 = 0,
    baremetal_gpu_l40s_count_limit: l40s = 0,
  } = limits;
  return { ...limits, baremetal_gpu_count_limit: a100 + h100 + h200 + l40s };
}
