// What each client uses in each region beyond its volumes (floating IPs, GPU cards, …): the
// quotas of the spec's virtual GPU quota check, drawn from the seeded random source. Volumes are
// not here: the store counts them from the volumes table.

import type { Random } from "../../random.js";
import { regionalQuotaNames } from "../spec-facts.js";
import type { RegionalQuotaName, RegionalUsage } from "../types.js";
import { CLIENT_IDS } from "./clients.js";
import type { RegionDraft } from "./regions.js";

/** null: counted from the world's records, not drawn. */
type SampleUsage = ((random: Random, region: RegionDraft) => number) | null;

const SAMPLE_USAGE: Record<RegionalQuotaName, SampleUsage> = {
  baremetal_network_count: (random) => random.int(0, 1),
  external_ip_count: (random) => random.int(0, 6),
  floating_count: (random) => random.int(0, 4),
  gpu_virtual_a100_count: () => 0,
  gpu_virtual_h100_count: (random, r) => (r.access_level === "core" ? random.int(0, 4) : 0),
  gpu_virtual_h200_count: () => 0,
  gpu_virtual_l40s_count: (random) => random.int(0, 8),
  volume_count: null,
  volume_size: null,
};

export function usage(doc: object, regions: RegionDraft[], random: Random): RegionalUsage[] {
  const names = regionalQuotaNames(doc);
  return CLIENT_IDS.flatMap((client_id) =>
    regions.map((region) => {
      const drawn: RegionalUsage["usage"] = {};
      for (const name of names) {
        const sample = SAMPLE_USAGE[name];
        if (sample === undefined)
          throw new Error(
            `The default world has no sample usage for the regional quota ${name}; give it one in src/world/default/usage.ts.`,
          );
        if (sample) drawn[name] = sample(random, region);
      }
      return { client_id, region_id: region.id, usage: drawn };
    }),
  );
}
