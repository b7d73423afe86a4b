// What the discovery before the first scenario found (src/discovery/prepare.ts), as results of their own: the
// token verified, the default project named, an ACTIVE region listed. A discovery answer that
// breaks the spec fails its step here, with its evidence; the scenarios that need what it could not
// give skip, naming it.

import { check, scenario } from "../src/active/scenario.js";
import { REGIONS, usableRegionState } from "../src/facts/regions.js";
import type { DiscoveryStepId } from "../src/shared/context.js";

const STEPS: { id: DiscoveryStepId; title: string; operation: string; calls: string[] }[] = [
  {
    id: "discovery.current-client",
    title: "the token is verified: GET /iam/clients/me answers 200",
    operation: "getCurrentClient",
    calls: ["GET /iam/clients/me"],
  },
  {
    id: "discovery.default-project",
    title: "GET /cloud/v1/projects names the default project with its id",
    operation: "listProjects",
    calls: ["GET /cloud/v1/projects (unless --project-id)"],
  },
  {
    id: "discovery.active-region",
    title: `GET ${REGIONS} lists the regions, one of them ${usableRegionState()}`,
    operation: "listRegions",
    calls: [`GET ${REGIONS}, every page`],
  },
];

for (const { id, title, operation, calls } of STEPS)
  scenario({ id, title, severity: "must", operation, calls }, async ({ run, skip, cite, took }) => {
    const step = run.discovery.steps.find((s) => s.id === id);
    if (!step) return skip("no discovery was made");
    // Its time is the discovery's: its requests, retries and waits before the run's first test.
    if (step.durationMs !== undefined) took(step.durationMs);
    cite(...step.evidence);
    if (step.status === "skipped") return skip(step.reason ?? "not needed");
    check(step.status === "passed", step.reason ?? `${id} failed`);
  });
