// Each client's limits in each region. The quotas are those of the spec's virtual GPU quota check,
// each with a sample limit below (a quota the spec adds fails compilation here until it has one).
// Frankfurt is nearly full for the default client, so a volume of more than 20 GiB or a third
// volume there exceeds a quota; Luxembourg-2 has room. GPU cards beyond A100 and L40S are offered
// in core regions only.

import { regionalQuotaNames } from "../spec-facts.js";
import type { RegionalLimitValues, RegionalQuota, RegionalQuotaName } from "../types.js";
import { CLIENT_IDS, DEFAULT_CLIENT_ID } from "./clients.js";
import type { RegionDraft } from "./regions.js";

type SampleLimit = (region: RegionDraft, nearlyFull: boolean) => number;

const SAMPLE_LIMITS: Record<RegionalQuotaName, SampleLimit> = {
  baremetal_network_count: () => 2,
  external_ip_count: () => 20,
  floating_count: () => 10,
  gpu_virtual_a100_count: () => 8,
  gpu_virtual_h100_count: (r) => (r.access_level === "core" ? 16 : 0),
  gpu_virtual_h200_count: (r) => (r.access_level === "core" ? 8 : 0),
  gpu_virtual_l40s_count: () => 24,
  volume_count: (_, nearlyFull) => (nearlyFull ? 3 : 50),
  volume_size: (_, nearlyFull) => (nearlyFull ? 100 : 5000),
};

/** Limits beyond the quota check's, for the quota limit requests to refer to. */
const OTHER_LIMITS: RegionalLimitValues = {
  cpu_count_limit: 256,
  ram_limit: 1_048_576,
  vm_count_limit: 2000,
};

export function quotas(doc: object, regions: RegionDraft[]): RegionalQuota[] {
  const names = regionalQuotaNames(doc);
  return CLIENT_IDS.flatMap((client_id) =>
    regions.map((region) => {
      const nearlyFull = client_id === DEFAULT_CLIENT_ID && region.id === 38;
      const limits: RegionalLimitValues = {};
      for (const name of names) limits[limitField(name)] = sampleLimit(name)(region, nearlyFull);
      return { client_id, region_id: region.id, limits: { ...limits, ...OTHER_LIMITS } };
    }),
  );
}

const limitField = (name: RegionalQuotaName) => `${name}_limit` as const;

function sampleLimit(name: RegionalQuotaName): SampleLimit {
  const sample = SAMPLE_LIMITS[name];
  if (!sample)
    throw new Error(
      `The default world has no sample limit for the regional quota ${name}; give it one in src/world/default/quotas.ts.`,
    );
  return sample;
}
