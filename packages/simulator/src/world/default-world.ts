// The default world: small enough to read, big enough to exercise every rule of the seed — several
// projects (one default), ACTIVE and not-ACTIVE regions of both access levels, one project/region
// pair with more than 1,000 instances (paging past the largest page matters) and pairs with none,
// quota limit requests of several clients in every status, AI tasks of both names and all seven
// statuses over several pages, protection profiles with templates, storage notification settings.
// Everything is drawn from the seeded random source, so one seed gives one world.

import { withoutOffset } from "../clock.js";
import { createRandom } from "../random.js";
import type { AiTaskEntry, JsonObject, TaskEntry, World } from "./types.js";

/** Tokens of the default world. Like real tokens they contain a `$` (quote them in a shell). */
export const DEFAULT_TOKENS = {
  client: "300112$sim-client-7c1f0d9a4e",
  reseller: "500$sim-reseller-2b8e6a1c55",
  readOnly: "300112$sim-read-only-5d3a9e07bb",
  expired: "300112$sim-expired-91c4f2e6d0",
  otherClient: "300113$sim-other-client-a4e1b7c9",
} as const;

export const DEFAULT_CLIENT_ID = 300112;
export const DEFAULT_RESELLER_ID = 500;

/** History is dated before this instant so that the default world never changes with the date. */
const EPOCH = Date.UTC(2026, 10, 1, 8, 0, 0);

const REGIONAL_QUOTA_NAMES = [
  "baremetal_network_count",
  "external_ip_count",
  "floating_count",
  "gpu_virtual_a100_count",
  "gpu_virtual_h100_count",
  "gpu_virtual_h200_count",
  "gpu_virtual_l40s_count",
  "volume_count",
  "volume_size",
] as const;

export function createDefaultWorld(randomSeed = 1): World {
  const random = createRandom(randomSeed);
  const clientIds = [DEFAULT_CLIENT_ID, 300113, 300114];

  const regions: World["regions"] = [
    region(
      76,
      "Luxembourg-2",
      "ACTIVE",
      "core",
      "EUROPE",
      [true, true, true, true],
      ["standard", "ssd_hiiops", "cold", "ultra"],
    ),
    region(
      38,
      "Frankfurt",
      "ACTIVE",
      "core",
      "EUROPE",
      [true, false, true, true],
      ["standard", "ssd_hiiops"],
    ),
    region(112, "Singapore", "ACTIVE", "edge", "ASIAPAC", [true, false, false, false], ["standard"]),
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
      "EUROPE",
      [true, true, true, false],
      ["standard", "ssd_hiiops"],
    ),
  ];

  const volumes: World["volumes"] = [
    {
      id: random.uuid(),
      project_id: 1,
      region_id: 76,
      name: "boot-01",
      size: 20,
      type_name: "standard",
      source: "image",
    },
    {
      id: random.uuid(),
      project_id: 1,
      region_id: 76,
      name: "data-01",
      size: 40,
      type_name: "ssd_hiiops",
      source: "new-volume",
    },
    {
      id: random.uuid(),
      project_id: 1,
      region_id: 38,
      name: "scratch",
      size: 50,
      type_name: "standard",
      source: "new-volume",
    },
    {
      id: random.uuid(),
      project_id: 1,
      region_id: 38,
      name: "archive",
      size: 30,
      type_name: "standard",
      source: "new-volume",
    },
    {
      id: random.uuid(),
      project_id: 4,
      region_id: 76,
      name: "other-client",
      size: 10,
      type_name: "standard",
      source: "image",
    },
  ];

  // Frankfurt is nearly full for the default client, so a volume of more than 20 GiB or a third
  // volume there exceeds a quota; Luxembourg-2 has room.
  const quotas: World["quotas"] = [];
  const usage: World["usage"] = [];
  for (const client_id of clientIds) {
    for (const r of regions) {
      const tight = client_id === DEFAULT_CLIENT_ID && r.id === 38;
      quotas.push({
        client_id,
        region_id: r.id,
        limits: {
          baremetal_network_count_limit: 2,
          external_ip_count_limit: 20,
          floating_count_limit: 10,
          gpu_virtual_a100_count_limit: 8,
          gpu_virtual_h100_count_limit: r.access_level === "core" ? 16 : 0,
          gpu_virtual_h200_count_limit: r.access_level === "core" ? 8 : 0,
          gpu_virtual_l40s_count_limit: 24,
          volume_count_limit: tight ? 3 : 50,
          volume_size_limit: tight ? 100 : 5000,
          cpu_count_limit: 256,
          ram_limit: 1_048_576,
          vm_count_limit: 2000,
        },
      });
      usage.push({
        client_id,
        region_id: r.id,
        usage: {
          baremetal_network_count: random.int(0, 1),
          external_ip_count: random.int(0, 6),
          floating_count: random.int(0, 4),
          gpu_virtual_a100_count: 0,
          gpu_virtual_h100_count: r.access_level === "core" ? random.int(0, 4) : 0,
          gpu_virtual_h200_count: 0,
          gpu_virtual_l40s_count: random.int(0, 8),
        },
      });
    }
  }

  return {
    clients: [
      { id: DEFAULT_CLIENT_ID, email: "ops@example.com", status: "active", reseller_id: DEFAULT_RESELLER_ID },
      { id: 300113, email: "platform@example.org", status: "active", reseller_id: DEFAULT_RESELLER_ID },
      { id: 300114, email: "billing@example.net", status: "trial", reseller_id: DEFAULT_RESELLER_ID },
    ],
    tokens: [
      { token: DEFAULT_TOKENS.client, kind: "client", owner_id: DEFAULT_CLIENT_ID, label: "client" },
      { token: DEFAULT_TOKENS.reseller, kind: "reseller", owner_id: DEFAULT_RESELLER_ID, label: "reseller" },
      {
        token: DEFAULT_TOKENS.readOnly,
        kind: "client",
        owner_id: DEFAULT_CLIENT_ID,
        read_only: true,
        label: "read-only",
      },
      {
        token: DEFAULT_TOKENS.expired,
        kind: "client",
        owner_id: DEFAULT_CLIENT_ID,
        expires_at: "2026-01-01T00:00:00Z",
        label: "expired",
      },
      { token: DEFAULT_TOKENS.otherClient, kind: "client", owner_id: 300113, label: "other client" },
    ],
    projects: [
      { id: 1, name: "default", is_default: true, state: "ACTIVE", client_id: DEFAULT_CLIENT_ID },
      { id: 2, name: "staging", is_default: false, state: "ACTIVE", client_id: DEFAULT_CLIENT_ID },
      { id: 3, name: "ml-training", is_default: false, state: "ACTIVE", client_id: DEFAULT_CLIENT_ID },
      { id: 4, name: "default", is_default: true, state: "ACTIVE", client_id: 300113 },
    ],
    regions,
    instances: [
      { project_id: 1, region_id: 76, count: 1234, name_prefix: "web" },
      { project_id: 1, region_id: 38, count: 7, name_prefix: "db" },
      { project_id: 2, region_id: 112, count: 3, name_prefix: "edge" },
      { project_id: 4, region_id: 76, count: 2, name_prefix: "other" },
    ],
    volumes,
    quotas,
    usage,
    flavors: [
      { name: "g3-ai-32-192-1500-l40s-48-1", gpu_model: "l40s", gpus_per_server: 1 },
      { name: "g3-ai-64-384-3000-l40s-48-2", gpu_model: "l40s", gpus_per_server: 2 },
      { name: "g2-ai-128-1024-4000-a100-80-8", gpu_model: "a100", gpus_per_server: 8 },
      { name: "g3-ai-192-2048-7000-h100-80-8", gpu_model: "h100", gpus_per_server: 8 },
      { name: "g4-ai-192-2048-7000-h200-141-8", gpu_model: "h200", gpus_per_server: 8 },
    ],
    quota_limit_requests: quotaLimitRequests(clientIds, regions, random),
    ai_tasks: aiTasks(random),
    ...protectionProfiles(),
    storage_notification_events: [
      {
        client_id: DEFAULT_CLIENT_ID,
        event: { name: "reaching_used_space", bytes: 1_000_000_000_000, storage_name: "media" },
      },
      {
        client_id: DEFAULT_CLIENT_ID,
        event: { name: "reaching_used_requests", count: 5_000_000, storage_name: "media" },
      },
      {
        client_id: 300113,
        event: { name: "reaching_files_quantity", count: 1_000_000, bucket_name: "logs" },
      },
    ],
    tasks: historicTasks(random),
  };
}

/** The quota names of the virtual GPU quota check, each with `_limit`, `_requested`, `_usage`. */
export { REGIONAL_QUOTA_NAMES };

function region(
  id: number,
  display_name: string,
  state: string,
  access_level: string,
  zone: string,
  [has_kvm, has_baremetal, has_k8s, has_dbaas]: [boolean, boolean, boolean, boolean],
  available_volume_types: string[],
): World["regions"][number] {
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

function quotaLimitRequests(
  clientIds: number[],
  regions: World["regions"],
  random: ReturnType<typeof createRandom>,
) {
  const statuses = ["done", "in progress", "rejected"] as const;
  const requests: JsonObject[] = [];
  for (let i = 0; i < 24; i++) {
    const client_id = clientIds[i % clientIds.length] as number;
    const status = statuses[Math.floor(i / 3) % statuses.length] as string;
    const created = EPOCH - (24 - i) * 86_400_000;
    const region_id = (regions[i % regions.length] as World["regions"][number]).id;
    const requested_limits: JsonObject =
      i % 4 === 0
        ? { global_limits: { project_count_limit: 5 + i, keypair_count_limit: 20 } }
        : {
            regional_limits: [
              {
                region_id,
                cpu_count_limit: 64 * random.int(1, 8),
                ram_limit: 131_072 * random.int(1, 4),
                volume_size_limit: 1000 * random.int(1, 10),
                // The deprecated total is always the sum of the four bare metal GPU limits.
                baremetal_gpu_a100_count_limit: i % 2,
                baremetal_gpu_h100_count_limit: 1,
                baremetal_gpu_h200_count_limit: 0,
                baremetal_gpu_l40s_count_limit: 2,
                baremetal_gpu_count_limit: (i % 2) + 3,
              },
            ],
          };
    requests.push({
      id: 1000 + i,
      client_id,
      requested_limits,
      description:
        i % 5 === 0
          ? null
          : `Capacity for ${["a launch", "load tests", "a migration", "training runs"][i % 4]}`,
      status,
      created_at: new Date(created).toISOString(),
      updated_at: status === "in progress" ? null : new Date(created + 3_600_000).toISOString(),
    });
  }
  return requests;
}

function aiTasks(random: ReturnType<typeof createRandom>): AiTaskEntry[] {
  const statuses = ["FAILURE", "PENDING", "RECEIVED", "RETRY", "REVOKED", "STARTED", "SUCCESS"] as const;
  const videos = [
    "keynote",
    "interview",
    "product-demo",
    "webinar",
    "match-highlights",
    "town-hall",
    "tutorial",
  ];
  const tasks: AiTaskEntry[] = [];
  for (let i = 0; i < 57; i++) {
    const status = statuses[i % statuses.length] as string;
    const task_name = i % 3 === 0 ? "content-moderation" : "transcription";
    const video = videos[(i * 5) % videos.length] as string;
    const progress =
      status === "SUCCESS" ? 100 : status === "PENDING" || status === "RECEIVED" ? 0 : random.int(1, 99);
    const task_data: JsonObject =
      task_name === "transcription"
        ? {
            url: `https://example.com/videos/${video}-${i}.mp4`,
            audio_language: random.pick(["eng", "deu", "fra", "spa"]),
          }
        : {
            url: `https://example.com/videos/${video}-${i}.mp4`,
            category: random.pick(["nsfw", "sport", "weapons"]),
          };
    tasks.push({
      client_id: DEFAULT_CLIENT_ID,
      started_at: new Date(EPOCH - i * 3_600_000 - random.int(0, 3_599) * 1000).toISOString(),
      record: { task_id: random.uuid(), task_name, task_data, progress, status },
    });
  }
  return tasks;
}

function protectionProfiles(): Pick<World, "protection_profile_templates" | "protection_profiles"> {
  const created = "2026-03-02T10:15:00Z";
  const integerField = (id: number, name: string, description: string, dflt: string, minimum: number) => ({
    id,
    name,
    description,
    field_type: "int",
    required: true,
    default: dflt,
    validation_schema: { type: "integer", minimum },
  });
  const templates: JsonObject[] = [
    {
      id: 1,
      name: "Universal",
      description: "Baseline protection for any service; needs the protected IP address",
      fields: [integerField(11, "max_pps", "Packets per second allowed before mitigation", "50000", 1)],
      base_template: 1,
      version: "3f1c2a9e-5b7d-4e21-9c0a-1d2e3f405162",
      created,
      allow_merge: true,
    },
    {
      id: 7,
      name: "Game server",
      description: "Protection tuned for UDP game traffic",
      fields: [
        integerField(31, "max_pps", "Packets per second allowed before mitigation", "100000", 1),
        integerField(32, "max_udp_sessions", "Concurrent UDP sessions per source", "64", 1),
      ],
      base_template: 1,
      version: "0b9f1e2d-3c4a-4b5c-8d6e-7f8091a2b3c4",
      created,
      allow_merge: false,
    },
    {
      id: 9,
      name: "Web",
      description: "Protection for HTTP(S) services",
      fields: [integerField(41, "max_rps", "HTTP requests per second per source", "200", 1)],
      base_template: 1,
      version: "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a8b",
      created,
      allow_merge: true,
    },
  ];
  const profile = (id: number, template: JsonObject, ip_address: string, site: string, plan: string) => ({
    client_id: DEFAULT_CLIENT_ID,
    record: {
      id,
      profile_template: template,
      ip_address,
      fields: (template.fields as JsonObject[]).map((f, i) => ({
        ...f,
        id: id * 10 + i,
        value: f.default as string,
        field_value: Number(f.default),
        base_field: f.id as number,
      })),
      site,
      options: { bgp: false, active: true, price: "99.00" },
      protocols: [],
      status: {},
      plan,
      provider: "sifter",
      management_type: "static",
    } satisfies JsonObject,
  });
  return {
    protection_profile_templates: templates,
    protection_profiles: [
      profile(4211, templates[1] as JsonObject, "203.0.113.10", "ED", "standard"),
      profile(4212, templates[0] as JsonObject, "203.0.113.11", "ED", "standard"),
      profile(4213, templates[2] as JsonObject, "198.51.100.7", "SG", "advanced"),
    ],
  };
}

function historicTasks(random: ReturnType<typeof createRandom>): TaskEntry[] {
  const entry = (
    minutesAgo: number,
    task_type: string,
    state: string,
    created: JsonObject | null,
    error: string | null,
  ) => {
    const created_on = EPOCH - minutesAgo * 60_000;
    return {
      client_id: DEFAULT_CLIENT_ID,
      project_id: 1,
      region_id: 76,
      record: {
        id: random.uuid(),
        task_type,
        state,
        error,
        created_on: withoutOffset(created_on),
        finished_on: withoutOffset(created_on + random.int(10, 60) * 1000),
        created_resources: created,
      },
    };
  };
  const none = { instances: [], volumes: [], floatingips: [], networks: [] };
  return [
    entry(
      300,
      "create_vm",
      "FINISHED",
      { ...none, instances: [random.uuid()], volumes: [random.uuid()] },
      null,
    ),
    entry(240, "create_volume", "FINISHED", { ...none, volumes: [random.uuid()] }, null),
    entry(180, "delete_vm", "FINISHED", none, null),
    entry(
      120,
      "create_volume",
      "ERROR",
      null,
      "Quota exceeded: volume_size_limit is 5000 GiB; 4990 GiB in use and 20 GiB requested exceed it by 10 GiB",
    ),
  ];
}
