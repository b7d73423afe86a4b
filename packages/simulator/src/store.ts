// The one in-memory store: the world, the tasks in flight and their outcomes. Task states are a
// function of the simulator's clock, so they only ever move forward, and a task's outcome (a new
// volume, or an ERROR naming the exceeded quota) is decided when it is created and applied when it
// reaches its end.

import { type Clock, withoutOffset } from "./clock.js";
import { badRequest, notFound } from "./errors.js";
import type { Random } from "./random.js";
import type { JsonObject, Project, Region, TaskEntry, TokenEntry, Volume, World } from "./world/types.js";

export interface TaskDuration {
  /** Typical duration of the task type in seconds (the seed's polling table). */
  min: number;
  max: number;
}

export interface StoreOptions {
  clock: Clock;
  random: Random;
  /** Multiplies every task duration (0.01 turns 5-15 s into 50-150 ms). */
  timeScale: number;
  /** Typical durations by task_type, from the spec's x-task-polling. */
  durations: Record<string, TaskDuration>;
}

/** Who is calling, from the Authorization header. */
export interface Caller {
  token: TokenEntry;
  /** The client whose resources a client token reaches. */
  clientId: number | undefined;
  /** The reseller whose clients a reseller token reaches. */
  resellerId: number | undefined;
}

type Outcome = { kind: "finish"; volume: Volume } | { kind: "error"; error: string };

interface TaskInFlight {
  entry: TaskEntry;
  createdMs: number;
  durationMs: number;
  outcome: Outcome;
}

/** Share of a task's duration spent queued (NEW) before it runs. */
const QUEUED_SHARE = 0.2;

const NO_RESOURCES = () => ({ instances: [], volumes: [], floatingips: [], networks: [] });

export class Store {
  readonly world: World;
  private readonly tokens = new Map<string, TokenEntry>();
  private readonly tasks = new Map<string, TaskEntry>();
  private readonly inFlight = new Map<string, TaskInFlight>();
  private readonly instances = new Map<string, JsonObject[]>();
  /** Resources created through the API since start (listed by the admin surface). */
  readonly created: { volumes: string[]; tasks: string[] } = { volumes: [], tasks: [] };

  constructor(
    world: World,
    private readonly options: StoreOptions,
  ) {
    this.world = structuredClone(world);
    for (const t of this.world.tokens) this.tokens.set(t.token, t);
    for (const t of this.world.tasks) this.tasks.set(String(t.record.id), t);
    for (const group of this.world.instances) {
      const key = `${group.project_id}:${group.region_id}`;
      const list = this.instances.get(key) ?? [];
      for (let i = 0; i < group.count; i++) {
        list.push({
          id: options.random.uuid(),
          name: `${group.name_prefix ?? "instance"}-${String(list.length + 1).padStart(4, "0")}`,
          status: "ACTIVE",
          project_id: group.project_id,
          region_id: group.region_id,
        });
      }
      this.instances.set(key, list);
    }
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

  instancesIn(projectId: number, regionId: number): JsonObject[] {
    return this.instances.get(`${projectId}:${regionId}`) ?? [];
  }

  volumesOfClient(clientId: number, regionId: number): Volume[] {
    const projects = new Set(this.projectsOf(clientId).map((p) => p.id));
    return this.world.volumes.filter((v) => v.region_id === regionId && projects.has(v.project_id));
  }

  quotaLimits(clientId: number, regionId: number): Record<string, number> {
    return this.world.quotas.find((q) => q.client_id === clientId && q.region_id === regionId)?.limits ?? {};
  }

  setQuotaLimits(clientId: number, regionId: number, limits: Record<string, number>): Record<string, number> {
    let quota = this.world.quotas.find((q) => q.client_id === clientId && q.region_id === regionId);
    if (!quota) {
      quota = { client_id: clientId, region_id: regionId, limits: {} };
      this.world.quotas.push(quota);
    }
    Object.assign(quota.limits, limits);
    return quota.limits;
  }

  recordedUsage(clientId: number, regionId: number): Record<string, number> {
    return this.world.usage.find((u) => u.client_id === clientId && u.region_id === regionId)?.usage ?? {};
  }

  /**
   * Starts a create_volume task. The quota decision is made now, counting volumes that exist and
   * volumes of tasks still in flight, so two racing creates cannot both squeeze under a limit.
   */
  createVolume(clientId: number, project: Project, region: Region, body: JsonObject): TaskEntry {
    const size = body.size as number;
    const type_name =
      (body.type_name as string | undefined) ?? region.available_volume_types[0] ?? "standard";
    if (!region.available_volume_types.includes(type_name)) {
      throw badRequest(
        `Body field "type_name" is "${type_name}", which region ${region.id} does not offer; available_volume_types: ${region.available_volume_types.join(", ")}.`,
      );
    }
    const volume: Volume = {
      id: this.options.random.uuid(),
      project_id: project.id,
      region_id: region.id,
      name:
        (body.name as string | undefined) ??
        `volume-${this.created.volumes.length + this.world.volumes.length + 1}`,
      size,
      type_name,
      source: (body.source as string | undefined) ?? "new-volume",
    };
    const error = this.volumeQuotaError(clientId, region.id, size);
    return this.startTask(
      clientId,
      project.id,
      region.id,
      "create_volume",
      error ? { kind: "error", error } : { kind: "finish", volume },
    );
  }

  private volumeQuotaError(clientId: number, regionId: number, size: number): string | undefined {
    const limits = this.quotaLimits(clientId, regionId);
    const pending = [...this.inFlight.values()]
      .filter(
        (t) =>
          t.outcome.kind === "finish" && t.entry.client_id === clientId && t.entry.region_id === regionId,
      )
      .map((t) => (t.outcome as { volume: Volume }).volume);
    const volumes = [...this.volumesOfClient(clientId, regionId), ...pending];
    const countLimit = limits.volume_count_limit;
    if (countLimit !== undefined && volumes.length + 1 > countLimit) {
      return `Quota exceeded: volume_count_limit is ${countLimit}; ${volumes.length} in use and 1 requested exceed it by ${volumes.length + 1 - countLimit}`;
    }
    const sizeLimit = limits.volume_size_limit;
    const used = volumes.reduce((sum, v) => sum + v.size, 0);
    if (sizeLimit !== undefined && used + size > sizeLimit) {
      return `Quota exceeded: volume_size_limit is ${sizeLimit} GiB; ${used} GiB in use and ${size} GiB requested exceed it by ${used + size - sizeLimit} GiB`;
    }
    return undefined;
  }

  private startTask(
    clientId: number,
    projectId: number,
    regionId: number,
    taskType: string,
    outcome: Outcome,
  ): TaskEntry {
    const createdMs = this.now();
    const typical = this.options.durations[taskType] ?? { min: 5, max: 15 };
    const seconds = typical.min + this.options.random.next() * (typical.max - typical.min);
    const entry: TaskEntry = {
      client_id: clientId,
      project_id: projectId,
      region_id: regionId,
      record: {
        id: this.options.random.uuid(),
        task_type: taskType,
        state: "NEW",
        error: null,
        created_on: withoutOffset(createdMs),
        finished_on: null,
        created_resources: null,
      },
    };
    const id = String(entry.record.id);
    this.tasks.set(id, entry);
    this.world.tasks.push(entry);
    this.inFlight.set(id, { entry, createdMs, durationMs: seconds * 1000 * this.options.timeScale, outcome });
    this.created.tasks.push(id);
    return entry;
  }

  /** Brings every task in flight up to the clock; called before each request reads state. */
  settle(): void {
    const now = this.now();
    for (const [id, task] of this.inFlight) {
      const elapsed = now - task.createdMs;
      const record = task.entry.record;
      if (elapsed < task.durationMs * QUEUED_SHARE) continue;
      if (elapsed < task.durationMs) {
        record.state = "RUNNING";
        continue;
      }
      record.finished_on = withoutOffset(task.createdMs + task.durationMs);
      if (task.outcome.kind === "finish") {
        this.world.volumes.push(task.outcome.volume);
        this.created.volumes.push(task.outcome.volume.id);
        record.state = "FINISHED";
        record.created_resources = { ...NO_RESOURCES(), volumes: [task.outcome.volume.id] };
      } else {
        record.state = "ERROR";
        record.error = task.outcome.error;
        record.created_resources = null;
      }
      this.inFlight.delete(id);
    }
  }

  task(clientId: number, taskId: string): TaskEntry {
    const task = this.tasks.get(taskId);
    if (!task || task.client_id !== clientId) throw notFound(`Task ${taskId}`);
    return task;
  }

  tasksOf(clientId: number): TaskEntry[] {
    return this.world.tasks.filter((t) => t.client_id === clientId);
  }
}
