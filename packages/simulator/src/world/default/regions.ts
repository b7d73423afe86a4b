// ACTIVE and not-ACTIVE regions of both access levels, with different features and volume types.
// Zones are the platform's own; `INACTIVE` and `MAINTENANCE` are illustrative (the seed shows
// only `ACTIVE`).

import type { RegionZone } from "../platform-values.js";
import type { Region } from "../types.js";

export function regions(): Region[] {
  return [
    region(
      76,
      "Luxembourg-2",
      "ACTIVE",
      "core",
      "EMEA",
      [true, true, true, true],
      ["standard", "ssd_hiiops", "cold", "ultra"],
    ),
    region(38, "Frankfurt", "ACTIVE", "core", "EMEA", [true, false, true, true], ["standard", "ssd_hiiops"]),
    region(112, "Singapore", "ACTIVE", "edge", "APAC", [true, false, false, false], ["standard"]),
    region(118, "Manassas", "INACTIVE", "edge", "AMERICAS", [true, false, false, false], ["standard"]),
    region(
      130,
      "Santa Clara",
      "ACTIVE",
      "edge",
      "AMERICAS",
      [true, true, false, false],
      ["standard", "cold"],
    ),
    region(
      144,
      "Sines",
      "MAINTENANCE",
      "core",
      "EMEA",
      [true, true, true, false],
      ["standard", "ssd_hiiops"],
    ),
  ];
}

function region(
  id: number,
  display_name: string,
  state: string,
  access_level: Region["access_level"],
  zone: RegionZone,
  [has_kvm, has_baremetal, has_k8s, has_dbaas]: [boolean, boolean, boolean, boolean],
  available_volume_types: string[],
): Region {
  return {
    id,
    display_name,
    state,
    access_level,
    zone,
    has_kvm,
    has_baremetal,
    has_k8s,
    has_dbaas,
    available_volume_types,
  };
}
