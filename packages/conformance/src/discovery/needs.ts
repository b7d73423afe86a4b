// Whether a run meets what a scenario, a driver or a rule needs (--allow-writes, a server that
// keeps state, the reseller key, …), and the reason it is skipped when not. Its own module: the
// fuzz command judges by the same needs without loading vitest.

import { rateText, requestRate } from "../facts/rate.js";
import type { Need, RunContext } from "../shared/context.js";

export function unmetNeed(needs: Need[], run: RunContext): string | undefined {
  const prism = run.target.kind === "prism";
  for (const need of needs) {
    if (need === "writes" && !run.allowWrites)
      return "creates or changes a resource: runs only with --allow-writes";
    if (need === "burst" && !run.allowBurst)
      return `sends more than the platform's ${rateText()}: runs only with --allow-burst`;
    if (need === "state" && prism) return "needs state; Prism serves the spec's examples and keeps none";
    if (need === "rate-limited" && prism)
      return `Prism never answers ${requestRate().exceededStatus} on its own`;
    if (need === "real-auth" && prism)
      return "Prism checks only that an Authorization header is present, not the token";
    if (need === "reseller" && !run.target.resellerApiKey)
      return `needs the reseller key (none in ${run.keySources.resellerApiKey})`;
    if (need === "profile" && run.discovered.protectionProfileId === undefined)
      return "needs a protection profile id (the spec lists none): pass --protection-profile-id";
    if (need === "gpu-flavor" && !run.discovered.gpuFlavor)
      return "needs a virtual GPU flavor name (the spec lists none): pass --gpu-flavor";
    // A dry run discovers nothing: what a run would find is not missing.
    if (need === "project" && run.discovered.projectId === undefined && !run.dryRun)
      return `needs a project: ${run.discovered.missing?.projectId ?? "none was found"}`;
    if (need === "region" && run.discovered.regionId === undefined && !run.dryRun)
      return `needs a region: ${run.discovered.missing?.regionId ?? "none was found"}`;
  }
  return undefined;
}
