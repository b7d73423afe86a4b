// The one in-memory store: the world, the tasks in flight and their outcomes. Task states are a
// function of the simulator's clock, so they only ever move forward, and a task's outcome (a new
// volume, or an ERROR naming the exceeded quota) is decided when it is created and applied when it
// reaches its end. What it keeps is bounded and every operation's cost stays flat as it fills:
// finished tasks expire (taskRetentionMs, at most LIMITS.finishedTasks), volumes are counted per
// client and region as they come, and due transitions come off a timeline, not a scan.

import { type Clock, withoutOffset } from "./clock.js";
import { badRequest, notFound } from "./errors.js";
import { LIMITS } from "./limits.js";
import { MinHeap } from "./min-heap.js";
import type { Random } from "./random.js";
import { quote } from "./validation-message.js";
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

type Outcome = { kind: "finish"; volume: Volume } | { kind: "error"; error: string };

interface TaskInFlight {
  entry: TaskEntry;
  createdMs: number;
  durationMs: number;
  outcome: Outcome;
}

/** A transition on the timeline: the task starts RUNNING, or reaches its end. */
interface Transition {
  atMs: number;
  /** creation order, so transitions due at the same time apply in a stable order */
  seq: number;
  kind: "run" | "end";
  task: TaskInFlight;
}

/** Volumes of one client in one region: what exists, and what tasks in flight will add. */
interface VolumeUsage {
  count: number;
  size: number;
  pendingCount: number;
  pendingSize: number;
}

/** Share of a task's duration spent queued (NEW) before it runs. */
const QUEUED_SHARE = 0.2;

const NO_RESOURCES = () => ({ instances: [], volumes: [], floatingips: [], networks: [] });

export class Store {
  readonly world: World;
  private readonly tokens = new Map<string, TokenEntry>();
  private readonly tasks = new Map<string, TaskEntry>();
  /** Each client's tasks in creation order (seeded ones first). */
  private readonly tasksByClient = new Map<number, Map<string, TaskEntry>>();
  private readonly timeline = new MinHeap<Transition>(
    (a, b) => a.atMs < b.atMs || (a.atMs === b.atMs && a.seq < b.seq),
  );
  private seq = 0;
  /** Tasks created through the API that reached FINISHED or ERROR, oldest end first. */
  private readonly finished: { id: string; atMs: number }[] = [];
  private finishedHead = 0;
  private readonly volumeUsage = new Map<string, VolumeUsage>();
  private readonly instances = new Map<string, JsonObject[]>();
  /** Ids of what was created through the API since start and is still kept (the admin surface lists them). */
  readonly created = { volumes: new Set<string>(), tasks: new Set<string>() };

  constructor(
    world: World,
    private readonly options: StoreOptions,
  ) {
    this.world = structuredClone(world);
    for (const t of this.world.tokens) this.tokens.set(t.token, t);
    for (const t of this.world.tasks) this.addTask(t);
    const owner = new Map(this.world.projects.map((p) => [p.id, p.client_id]));
    for (const v of this.world.volumes) {
      const clientId = owner.get(v.project_id);
      if (clientId === undefined) continue;
      const usage = this.usageOf(clientId, v.region_id);
      usage.count += 1;
      usage.size += v.size;
    }
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

  /** How many volumes a client has in a region, and their total size in GiB. */
  volumesOfClient(clientId: number, regionId: number): { count: number; size: number } {
    const usage = this.volumeUsage.get(`${clientId}:${regionId}`);
    return { count: usage?.count ?? 0, size: usage?.size ?? 0 };
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
        `Body field "type_name" is ${quote(type_name)}, which region ${region.id} does not offer; available_volume_types: ${region.available_volume_types.join(", ")}.`,
      );
    }
    const volume: Volume = {
      id: this.options.random.uuid(),
      project_id: project.id,
      region_id: region.id,
      name: (body.name as string | undefined) ?? `volume-${this.world.volumes.length + 1}`,
      size,
      type_name,
      source: (body.source as string | undefined) ?? "new-volume",
    };
    const error = this.volumeQuotaError(clientId, region.id, size);
    if (!error) {
      const usage = this.usageOf(clientId, region.id);
      usage.pendingCount += 1;
      usage.pendingSize += size;
    }
    return this.startTask(
      clientId,
      project.id,
      region.id,
      "create_volume",
      error ? { kind: "error", error } : { kind: "finish", volume },
    );
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

  private addTask(entry: TaskEntry): void {
    const id = String(entry.record.id);
    this.tasks.set(id, entry);
    let own = this.tasksByClient.get(entry.client_id);
    if (!own) {
      own = new Map();
      this.tasksByClient.set(entry.client_id, own);
    }
    own.set(id, entry);
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
    this.addTask(entry);
    const task: TaskInFlight = {
      entry,
      createdMs,
      durationMs: seconds * 1000 * this.options.timeScale,
      outcome,
    };
    const seq = this.seq++;
    this.timeline.push({ atMs: createdMs + task.durationMs * QUEUED_SHARE, seq, kind: "run", task });
    this.timeline.push({ atMs: createdMs + task.durationMs, seq, kind: "end", task });
    this.created.tasks.add(id);
    return entry;
  }

  /** Brings every task up to the clock and forgets expired ones; called before each request reads state. */
  settle(): void {
    const now = this.now();
    for (let next = this.timeline.peek(); next && next.atMs <= now; next = this.timeline.peek()) {
      this.timeline.pop();
      if (next.kind === "run") next.task.entry.record.state = "RUNNING";
      else this.finish(next.task);
    }
    this.expire(now);
  }

  private finish(task: TaskInFlight): void {
    const record = task.entry.record;
    const endMs = task.createdMs + task.durationMs;
    record.finished_on = withoutOffset(endMs);
    if (task.outcome.kind === "finish") {
      const { volume } = task.outcome;
      const usage = this.usageOf(task.entry.client_id, volume.region_id);
      usage.pendingCount -= 1;
      usage.pendingSize -= volume.size;
      usage.count += 1;
      usage.size += volume.size;
      this.world.volumes.push(volume);
      this.created.volumes.add(volume.id);
      record.state = "FINISHED";
      record.created_resources = { ...NO_RESOURCES(), volumes: [volume.id] };
    } else {
      record.state = "ERROR";
      record.error = task.outcome.error;
      record.created_resources = null;
    }
    this.finished.push({ id: String(record.id), atMs: endMs });
  }

  /** Forgets finished tasks past their retention, and the oldest beyond LIMITS.finishedTasks. */
  private expire(now: number): void {
    const kept = () => this.finished.length - this.finishedHead;
    for (
      let head = this.finished[this.finishedHead];
      head && (head.atMs + this.options.taskRetentionMs <= now || kept() > LIMITS.finishedTasks);
      head = this.finished[this.finishedHead]
    ) {
      this.finishedHead += 1;
      const entry = this.tasks.get(head.id);
      this.tasks.delete(head.id);
      if (entry) this.tasksByClient.get(entry.client_id)?.delete(head.id);
      this.created.tasks.delete(head.id);
    }
    // Drop the consumed front now and then, so the queue's array does not grow either.
    if (this.finishedHead > 1024 && this.finishedHead * 2 > this.finished.length) {
      this.finished.splice(0, this.finishedHead);
      this.finishedHead = 0;
    }
  }

  task(clientId: number, taskId: string): TaskEntry {
    const task = this.tasks.get(taskId);
    if (!task || task.client_id !== clientId) throw notFound(`Task ${taskId}`);
    return task;
  }

  /** The client's tasks still kept, in creation order. */
  tasksOf(clientId: number): TaskEntry[] {
    return [...(this.tasksByClient.get(clientId)?.values() ?? [])];
  }

  /** Tasks created through the API and still kept, with where they run (the admin surface). */
  createdTasks(): TaskEntry[] {
    return [...this.created.tasks].map((id) => this.tasks.get(id)).filter((t): t is TaskEntry => Boolean(t));
  }

  /** Volumes created through the API (the admin surface). */
  createdVolumes(): Volume[] {
    return this.world.volumes.filter((v) => this.created.volumes.has(v.id));
  }
}
