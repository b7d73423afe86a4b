// Virtual GPU flavors for check_limits (the spec names none): at least one for each GPU model the
// spec has a virtual GPU quota for, with one, two or eight cards per server.

import type { Flavor } from "../types.js";

export function flavors(): Flavor[] {
  return [
    { name: "g3-ai-32-192-1500-l40s-48-1", gpu_model: "l40s", gpus_per_server: 1 },
    { name: "g3-ai-64-384-3000-l40s-48-2", gpu_model: "l40s", gpus_per_server: 2 },
    { name: "g2-ai-128-1024-4000-a100-80-8", gpu_model: "a100", gpus_per_server: 8 },
    { name: "g3-ai-192-2048-7000-h100-80-8", gpu_model: "h100", gpus_per_server: 8 },
    { name: "g4-ai-192-2048-7000-h200-141-8", gpu_model: "h200", gpus_per_server: 8 },
  ];
}
