// One project/region pair with more than 1,000 instances (paging past the largest page matters),
// a few elsewhere, and pairs with none.

import type { InstanceGroup } from "../types.js";

export function instances(): InstanceGroup[] {
  return [
    { project_id: 1, region_id: 76, count: 1234, name_prefix: "web" },
    { project_id: 1, region_id: 38, count: 7, name_prefix: "db" },
    { project_id: 2, region_id: 112, count: 3, name_prefix: "edge" },
    { project_id: 4, region_id: 76, count: 2, name_prefix: "other" },
  ];
}
