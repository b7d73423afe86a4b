// The default client's volumes in Luxembourg-2 and Frankfurt (two of each: Frankfurt is nearly
// full, see quotas.ts), and one of the other client.

import type { Random } from "../../random.js";
import type { Volume } from "../types.js";

export function volumes(random: Random): Volume[] {
  const volume = (
    project_id: number,
    region_id: number,
    name: string,
    size: number,
    type_name: Volume["type_name"],
    source: Volume["source"],
  ): Volume => ({
    id: random.uuid(),
    project_id,
    region_id,
    name,
    size,
    type_name,
    source,
  });
  return [
    volume(1, 76, "boot-01", 20, "standard", "image"),
    volume(1, 76, "data-01", 40, "ssd_hiiops", "new-volume"),
    volume(1, 38, "scratch", 50, "standard", "new-volume"),
    volume(1, 38, "archive", 30, "standard", "new-volume"),
    volume(4, 76, "other-client", 10, "standard", "image"),
  ];
}
