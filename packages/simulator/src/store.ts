// The one in-memory store: the world, and the volumes and tasks the API creates. Tasks progress in
// the task engine (tasks/engine.ts); the store decides a volume's outcome (a new volume, or an ERROR
// naming the exceeded quota) when its task is created and applies it when the task ends. Volumes
// are counted per client and region as they come, so a quota check costs the same however many
// there are, and no client holds more than LIMITS.volumesPerRegion in a region.

import { operationById, resolvePointer, taskPollingOf } from "@platform-api/spec";
import type { components } from "@platform-api/spec/generated/openapi";
import type { Clock } from "./clock.js";
import { badRequest, notFound } from "./errors.js";
import { LIMITS } from "./limits.js";
import type { Random } from "./random.js";
import type { ServedSpec } from "./spec.js";
import type { TaskDuration } from "./tasks/durations.js";
import { type CreatedResources, TaskEngine, taskStatesOf } from "./tasks/engine.js";
import { quote } from "./validation-message.js";
import { complete, completeWorld, plausible } from "./world/complete.js";
import { type InstanceRecords, instanceRecords } from "./world/instance-records.js";
import { noCreatedResources, regionalQuotaNames } from "./world/spec-facts.js";

type Schemas = components["schemas"];

import type {
  Draft,
  Project,
  Region,
  RegionalLimitValues,
  RegionalQuotaName,
  RegionalUsage,
  TaskEntry,
  TokenEntry,
  Volume,
  World,
} from "./world/types.js";

export interface StoreOptions {
  /** The served description: the volume task's type and created_resources keys. */
  spec: ServedSpec;
  clock: Clock;
  random: Random;
  /** Multiplies every task duration (0.01 turns 5-15 s into 50-150 ms). */
  timeScale: number;
  /** The typical duration of a task type (tasks/durations.ts). */
  durationOf: (taskType: string) => TaskDuration;
  /** How long a FINISHED or ERROR task created through the API stays readable, in clock ms. */
  taskRetentionMs: number;
}

/** Who is calling, from the Authorization header. */
export interface Caller {
  token: TokenEntry;
  /** The client whose resources a client token reaches. */
  clientId: number | undefined;
  /** The reseller whose clients a reseller token reaches. */
  resellerId: number | undefined;
}

/** Volumes of one client in one region: what exists, and what tasks in flight will add. */
interface VolumeUsage {
  count: number;
  size: number;
  pendingCount: number;
  pendingSize: number;
}

/** A volume body as the route has checked it against the spec (size required unless from a snapshot). */
export type VolumeToCreate = components["schemas"]["CreateVolumeRequest"];

/** What the store knows of a volume created through the API besides the volume itself. */
export interface CreatedVolume {
  volume: Volume;
  region: Region;
  /** When its task finished and the volume came into being, in clock ms. */
  createdAtMs: number;
  /** The id of the task that created it. */
  creatorTaskId: string;
}

/** What createVolume's task is, from its x-async-task and the task schema. */
interface VolumeTask {
  taskType: string;
  /** created_resources with every key of the task schema empty, and the volume under its key. */
  resources: (volumeId: string) => CreatedResources;
}

function volumeTaskOf({ doc, model }: ServedSpec): VolumeTask {
  const { asyncTask } = operationById(model, "createVolume");
  const { taskType, createdResourcesKey } = asyncTask ?? {};
  if (!taskType || !createdResourcesKey)
    throw new Error(
      "createVolume's x-async-task names no taskType and createdResourcesKey; the simulator needs both to run its task.",
    );
  const none = noCreatedResources(doc);
  return { taskType, resources: (volumeId) => ({ ...none, [createdResourcesKey]: [volumeId] }) };
}

const TASK_SCHEMA = { $ref: "#/components/schemas/Task" };
export class Store {
  readonly world: World;
  /** The quotas of the virtual GPU quota check, from the served description. */
  readonly quotaNames: readonly RegionalQuotaName[];
  private readonly tokens = new Map<string, TokenEntry>();
  private readonly tasks: TaskEngine;
  private readonly volumeTask: VolumeTask;
  private readonly volumeUsage = new Map<string, VolumeUsage>();
  private readonly instances: InstanceRecords;
  /** The volumes created through the API, by id (the admin surface lists them; the volume read reads them). */
  private readonly createdVolumeById = new Map<string, Omit<CreatedVolume, "region">>();
  private readonly leastVolumeSize: number;

  constructor(
    world: World,
    private readonly options: StoreOptions,
  ) {
    this.world = completeWorld(options.spec.doc, structuredClone(world));
    this.volumeTask = volumeTaskOf(options.spec);
    this.quotaNames = regionalQuotaNames(options.spec.doc);
    this.leastVolumeSize = Number(
      plausible(options.spec.doc, { $ref: "#/components/schemas/CreateVolumeRequest/properties/size" }) ?? 1,
    );
    this.tasks = new TaskEngine({
      clock: options.clock,
      random: options.random,
      timeScale: options.timeScale,
      durationOf: options.durationOf,
      retentionMs: options.taskRetentionMs,
      states: taskStatesOf(taskPollingOf(options.spec.model)),
      complete: (record) => complete(options.spec.doc, TASK_SCHEMA, record, "task"),
    });
    for (const t of this.world.tokens) this.tokens.set(t.token, t);
    for (const t of this.world.tasks) this.tasks.add(t);
    const owner = new Map(this.world.projects.map((p) => [p.id, p.client_id]));
    for (const v of this.world.volumes) {
      const clientId = owner.get(v.project_id);
      if (clientId === undefined) continue;
      const usage = this.usageOf(clientId, v.region_id);
      usage.count += 1;
      usage.size += v.size;
    }
    this.instances = instanceRecords(options.spec.doc, this.world, options.random);
  }

  /**
   * A record as the API answers it: the world's bookkeeping beside it (a project's client_id, a
   * client's reseller_id) left out unless the spec's schema of the record describes that field.
   */
  served<T extends object>(schemaName: string, record: T, bookkeeping: readonly string[]): T {
    const schema = resolvePointer<{ properties?: object }>(
      this.options.spec.doc,
      `#/components/schemas/${schemaName}`,
    );
    const described = Object.keys(schema?.properties ?? {});
    const kept = Object.entries(record).filter(
      ([key]) => !bookkeeping.includes(key) || described.includes(key),
    );
    return Object.fromEntries(kept) as T;
  }

  /** A record of the spec's component `name` with what it lacks filled from that schema (complete.ts). */
  complete<N extends keyof Schemas>(name: N, record: Draft<Schemas[N]>): Schemas[N] {
    return complete(
      this.options.spec.doc,
      { $ref: `#/components/schemas/${name}` },
      record,
      name,
    ) as Schemas[N];
  }

  now(): number {
    return this.options.clock.now();
  }

  token(value: string): TokenEntry | undefined {
    return this.tokens.get(value);
  }

  isExpired(token: TokenEntry): boolean {
    return token.expires_at != null && Date.parse(token.expires_at) <= this.now();
  }

  /** The user a token acts for: the world's user_id of the token, else its owner (the simulator's choice). */
  userOf(caller: Caller): number {
    return caller.token.user_id ?? caller.token.owner_id;
  }

  /** The caller's own client id; a reseller token has none and may not use client operations. */
  clientOf(caller: Caller): number {
    if (caller.clientId === undefined) throw new Error("client operation reached without a client token");
    return caller.clientId;
  }

  projectsOf(clientId: number): Project[] {
    return this.world.projects.filter((p) => p.client_id === clientId);
  }

  /** The caller's project, or 404 (another client's project does not exist for this caller). */
  project(clientId: number, projectId: number): Project {
    const project = this.world.projects.find((p) => p.id === projectId && p.client_id === clientId);
    if (!project) throw notFound(`Project ${projectId}`);
    return project;
  }

  region(regionId: number): Region {
    const region = this.world.regions.find((r) => r.id === regionId);
    if (!region) throw notFound(`Region ${regionId}`);
    return region;
  }

  instancesIn(projectId: number, regionId: number): Schemas["Instance"][] {
    // Each was completed from the Instance schema when the world was built.
    return this.instances.list(projectId, regionId) as unknown as Schemas["Instance"][];
  }

  /** How many volumes a client has in a region, and their total size in GiB. */
  volumesOfClient(clientId: number, regionId: number): { count: number; size: number } {
    const usage = this.volumeUsage.get(`${clientId}:${regionId}`);
    return { count: usage?.count ?? 0, size: usage?.size ?? 0 };
  }

  quotaLimits(clientId: number, regionId: number): RegionalLimitValues {
    return this.world.quotas.find((q) => q.client_id === clientId && q.region_id === regionId)?.limits ?? {};
  }

  setQuotaLimits(clientId: number, regionId: number, limits: RegionalLimitValues): RegionalLimitValues {
    let quota = this.world.quotas.find((q) => q.client_id === clientId && q.region_id === regionId);
    if (!quota) {
      quota = { client_id: clientId, region_id: regionId, limits: {} };
      this.world.quotas.push(quota);
    }
    Object.assign(quota.limits, limits);
    return quota.limits;
  }

  recordedUsage(clientId: number, regionId: number): RegionalUsage["usage"] {
    return this.world.usage.find((u) => u.client_id === clientId && u.region_id === regionId)?.usage ?? {};
  }

  /**
   * Starts a create_volume task. The quota decision is made now, counting volumes that exist and
   * volumes of tasks still in flight, so two racing creates cannot both squeeze under a limit.
   */
  createVolume(
    clientId: number,
    userId: number,
    project: Project,
    region: Region,
    body: VolumeToCreate,
  ): TaskEntry {
    // The simulator keeps no snapshots: a volume from one, whose size the platform takes from the
    // snapshot, gets the least size the spec allows.
    const size = body.size ?? this.leastVolumeSize;
    // The simulator's choices where the seed is silent (README): the region's first volume type,
    // a new empty volume, a numbered name.
    const type_name = body.type_name ?? region.available_volume_types[0];
    if (type_name === undefined || !region.available_volume_types.includes(type_name)) {
      throw badRequest(
        `Body field "type_name" is ${quote(type_name ?? null)}, which region ${region.id} does not offer; available_volume_types: ${region.available_volume_types.join(", ") || "none"}.`,
      );
    }
    const volume: Volume = {
      id: this.options.random.uuid(),
      project_id: project.id,
      region_id: region.id,
      name: body.name ?? `volume-${this.world.volumes.length + 1}`,
      size,
      // The region's own list is open strings (the spec types it so); the volume keeps what it offers.
      type_name: type_name as Volume["type_name"],
      source: body.source ?? "new-volume",
    };
    const error = this.volumeQuotaError(clientId, region.id, size);
    if (!error) {
      const usage = this.usageOf(clientId, region.id);
      usage.pendingCount += 1;
      usage.pendingSize += size;
    }
    // The task's id is known once it has started; it finishes later, on a settle.
    let creatorTaskId = "";
    const task = this.tasks.start(
      { client_id: clientId, project_id: project.id, region_id: region.id },
      userId,
      this.volumeTask.taskType,
      error
        ? { kind: "error", error }
        : {
            kind: "finish",
            finish: (endMs) => this.addVolume(clientId, volume, { createdAtMs: endMs, creatorTaskId }),
          },
    );
    creatorTaskId = String(task.record.id);
    return task;
  }

  /** The volume of a finished task comes into being. */
  private addVolume(
    clientId: number,
    volume: Volume,
    created: Omit<CreatedVolume, "volume" | "region">,
  ): CreatedResources {
    const usage = this.usageOf(clientId, volume.region_id);
    usage.pendingCount -= 1;
    usage.pendingSize -= volume.size;
    usage.count += 1;
    usage.size += volume.size;
    this.world.volumes.push(volume);
    this.createdVolumeById.set(volume.id, { volume, ...created });
    return this.volumeTask.resources(volume.id);
  }

  private usageOf(clientId: number, regionId: number): VolumeUsage {
    const key = `${clientId}:${regionId}`;
    let usage = this.volumeUsage.get(key);
    if (!usage) {
      usage = { count: 0, size: 0, pendingCount: 0, pendingSize: 0 };
      this.volumeUsage.set(key, usage);
    }
    return usage;
  }

  private volumeQuotaError(clientId: number, regionId: number, size: number): string | undefined {
    const limits = this.quotaLimits(clientId, regionId);
    const usage = this.usageOf(clientId, regionId);
    const count = usage.count + usage.pendingCount;
    const countLimit = limits.volume_count_limit;
    if (countLimit !== undefined && count + 1 > countLimit) {
      return `Quota exceeded: volume_count_limit is ${countLimit}; ${count} in use and 1 requested exceed it by ${count + 1 - countLimit}`;
    }
    const sizeLimit = limits.volume_size_limit;
    const used = usage.size + usage.pendingSize;
    if (sizeLimit !== undefined && used + size > sizeLimit) {
      return `Quota exceeded: volume_size_limit is ${sizeLimit} GiB; ${used} GiB in use and ${size} GiB requested exceed it by ${used + size - sizeLimit} GiB`;
    }
    if (count + 1 > LIMITS.volumesPerRegion)
      return `The simulator holds at most ${LIMITS.volumesPerRegion} volumes per client and region; ${count} exist or are being created`;
    return undefined;
  }

  /** Brings every task up to the clock and forgets expired ones; called before each request reads state. */
  settle(): void {
    this.tasks.settle();
  }

  task(clientId: number, taskId: string): TaskEntry {
    return this.tasks.task(clientId, taskId);
  }

  /** The client's tasks still kept, in creation order. */
  tasksOf(clientId: number): TaskEntry[] {
    return this.tasks.tasksOf(clientId);
  }

  /** Tasks created through the API and still kept, with where they run (the admin surface). */
  createdTasks(): TaskEntry[] {
    return this.tasks.createdTasks();
  }

  /** Volumes created through the API (the admin surface). */
  createdVolumes(): Volume[] {
    return this.world.volumes.filter((v) => this.createdVolumeById.has(v.id));
  }

  /**
   * A volume the client created through the API in that project and region, or 404: a volume of
   * the world's seed, of another client, project or region, or none, does not exist for this read.
   */
  createdVolume(clientId: number, projectId: number, regionId: number, volumeId: string): CreatedVolume {
    const project = this.project(clientId, projectId);
    const region = this.region(regionId);
    const created = this.createdVolumeById.get(volumeId);
    if (created?.volume.project_id !== project.id || created.volume.region_id !== region.id)
      throw notFound(`Volume ${volumeId} in project ${projectId} and region ${regionId}`);
    return { ...created, region };
  }
}
