// The default world: small enough to read, big enough to exercise every rule of the seed. One file
// per table in default/; this one assembles them. Tables that draw from the seeded random source
// draw in a fixed order (volumes, usage, quota limit requests, AI tasks, tasks), so one seed gives
// one world. Enum values, quota names and task keys come from the description it is given.

import { loadBundle } from "@platform-api/spec";
import { createRandom } from "../random.js";
import { completeWorld } from "./complete.js";
import { aiTasks } from "./default/ai-tasks.js";
import { clients } from "./default/clients.js";
import { flavors } from "./default/flavors.js";
import { instances } from "./default/instances.js";
import { projects } from "./default/projects.js";
import { protectionProfileTemplates } from "./default/protection-profile-templates.js";
import { protectionProfiles } from "./default/protection-profiles.js";
import { quotaLimitRequests } from "./default/quota-limit-requests.js";
import { quotas } from "./default/quotas.js";
import { regions } from "./default/regions.js";
import { storageNotificationEvents } from "./default/storage-notification-events.js";
import { tasks } from "./default/tasks.js";
import { tokens } from "./default/tokens.js";
import { usage } from "./default/usage.js";
import { volumes } from "./default/volumes.js";
import type { World } from "./types.js";

export { DEFAULT_CLIENT_ID, DEFAULT_RESELLER_ID } from "./default/clients.js";
export { DEFAULT_TOKENS } from "./default/tokens.js";

/**
 * The default world for a random seed. `spec` is the description the simulator serves (the
 * bundled one unless given): the world's enum values, quota names and task keys are read from it.
 */
export function createDefaultWorld(randomSeed = 1, spec: object = loadBundle()): World {
  // Completed from the spec, every record is whole (default-world.test.ts validates each answer).
  return completeWorld(spec, draftWorld(randomSeed, spec)) as unknown as World;
}

/** The tables as written: drafts of some records, which completeWorld fills from the spec. */
function draftWorld(randomSeed: number, spec: object) {
  const random = createRandom(randomSeed);
  const regionTable = regions();
  const volumeTable = volumes(random);
  const usageTable = usage(spec, regionTable, random);
  const quotaLimitRequestTable = quotaLimitRequests(spec, regionTable, random);
  const aiTaskTable = aiTasks(spec, random);
  const taskTable = tasks(spec, random);
  const templates = protectionProfileTemplates();
  return {
    clients: clients(),
    tokens: tokens(),
    projects: projects(),
    regions: regionTable,
    instances: instances(),
    volumes: volumeTable,
    quotas: quotas(spec, regionTable),
    usage: usageTable,
    flavors: flavors(),
    quota_limit_requests: quotaLimitRequestTable,
    ai_tasks: aiTaskTable,
    protection_profile_templates: templates,
    protection_profiles: protectionProfiles(templates),
    storage_notification_events: storageNotificationEvents(),
    tasks: taskTable,
  };
}
