// Newest first is the platform's default order (order_by=created_at.desc), so Luxembourg-2, the
// region with the most instances, comes first, as a client that takes the first ACTIVE region expects.
// ACTIVE and not-ACTIVE regions of both access levels, with different features and volume types.
// Zones are the platform's own; `INACTIVE` and `MAINTENANCE` are illustrative (the seed shows
// only `ACTIVE`). Countries are where each city is (ISO 3166-1 alpha-2, as the platform writes
// them); slugs, creation dates, keystone names and the platform's further feature flags are
// illustrative. Every region is reached at the platform's public endpoint and offers no file shares;
// created_on (deprecated by the platform, still required) repeats created_at.

import type { RegionZone } from "../platform-values.js";
import type { Draft, Region } from "../types.js";

/** What the world reads of a region; the rest is filled from the spec when missing (complete.ts). */
export type RegionDraft = Draft<
  Region,
  "id" | "display_name" | "state" | "access_level" | "available_volume_types"
>;

const CREATED = (day: number) => new Date(Date.UTC(2021, 0, 1) + day * 86_400_000).toISOString();

export function regions(): RegionDraft[] {
  return [
    region(
      76,
      "Luxembourg-2",
      "LU",
      "luxembourg-2",
      CREATED(700),
      "ACTIVE",
      "core",
      "EMEA",
      [true, true, true, true],
      [true, true, true, true],
      ["standard", "ssd_hiiops", "cold", "ultra"],
    ),
    region(
      38,
      "Frankfurt",
      "DE",
      "frankfurt",
      CREATED(520),
      "ACTIVE",
      "core",
      "EMEA",
      [true, false, true, true],
      [true, false, true, true],
      ["standard", "ssd_hiiops"],
    ),
    region(
      112,
      "Singapore",
      "SG",
      "singapore",
      CREATED(410),
      "ACTIVE",
      "edge",
      "APAC",
      [true, false, false, false],
      [false, false, false, true],
      ["standard"],
    ),
    region(
      118,
      "Manassas",
      "US",
      "manassas",
      CREATED(300),
      "INACTIVE",
      "edge",
      "AMERICAS",
      [true, false, false, false],
      [false, false, false, false],
      ["standard"],
    ),
    region(
      130,
      "Santa Clara",
      "US",
      "santa-clara",
      CREATED(120),
      "ACTIVE",
      "edge",
      "AMERICAS",
      [true, true, false, false],
      [true, true, false, true],
      ["standard", "cold"],
    ),
    region(
      144,
      "Sines",
      "PT",
      "sines",
      CREATED(0),
      "MAINTENANCE",
      "core",
      "EMEA",
      [true, true, true, false],
      [true, true, true, false],
      ["standard", "ssd_hiiops"],
    ),
  ];
}

function region(
  id: number,
  display_name: string,
  country: string,
  slug: string,
  created_at: string,
  state: Region["state"],
  access_level: Region["access_level"],
  zone: RegionZone,
  [has_kvm, has_baremetal, has_k8s, has_dbaas]: [boolean, boolean, boolean, boolean],
  [has_ai, has_ai_gpu, has_sfs, has_ddos]: [boolean, boolean, boolean, boolean],
  available_volume_types: string[],
): RegionDraft {
  return {
    id,
    display_name,
    country,
    slug,
    created_at,
    state,
    access_level,
    zone,
    has_kvm,
    has_baremetal,
    has_k8s,
    has_dbaas,
    has_ai,
    has_ai_gpu,
    has_basic_vm: has_kvm,
    has_sfs,
    has_ddos,
    endpoint_type: "public",
    file_share_types: [],
    available_volume_types,
    created_on: created_at,
    keystone_id: id,
    keystone_name: `${country}-${id}`,
    vlan_physical_network: "physnet1",
  };
}
