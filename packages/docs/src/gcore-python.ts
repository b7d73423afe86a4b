// Which operations the platform's own Python SDK, gcore-python, has a method for, and the few facts
// of that SDK a sample needs: the one place these are written down (the Python samples in
// code-samples.ts are generated from it). An operation left out has no SDK method, so the reference
// shows no Python sample for it.
//
// Read from G-Core/gcore-python 0.53.0, commit ebc7ee07e9136e6c9cc4588a8f9dc6a92de66a4d: the
// client in src/gcore/_client.py, each method in the `file` named beside it, and the HTTP route of
// each method in src/gcore/resources/*/api.md. Operations without a method there, checked at that
// commit: checkVirtualGpuClusterLimits (the SDK's only check_limits is
// cloud.k8s.clusters.pools.check_quota, a Kubernetes route), listQuotaLimitRequests
// (cloud.quotas.requests.list is the client's /cloud/v2/limits_request, not the reseller's) and
// putStorageNotificationEvent (storage.* has no notifications).

export interface SdkMethod {
  /** The method as reached from the client: "cloud.tasks.list" is `client.cloud.tasks.list(...)`. */
  readonly method: string;
  /** The SDK's file that defines the method. */
  readonly file: string;
  /** The path parameter that the method takes as its first, positional argument. */
  readonly positional?: string;
  /**
   * The method's keyword arguments for the operation's other path parameters, its required query
   * parameters and its request body's top-level fields, named as the description names them. A
   * query parameter or body field of the description that is not among them is sent through the
   * SDK's `extra_query` / `extra_body`, which every method takes.
   */
  readonly keywords?: readonly string[];
  /** On the method that reads a task: the SDK's method that reads it until it ends. */
  readonly poll?: { readonly method: string; readonly intervalArgument: string };
}

/** By operationId. */
const METHODS: Readonly<Record<string, SdkMethod>> = {
  listTasks: { method: "cloud.tasks.list", file: "src/gcore/resources/cloud/tasks.py" },
  getTask: {
    method: "cloud.tasks.get",
    file: "src/gcore/resources/cloud/tasks.py",
    positional: "task_id",
    poll: { method: "cloud.tasks.poll", intervalArgument: "polling_interval_seconds" },
  },
  listProjects: { method: "cloud.projects.list", file: "src/gcore/resources/cloud/projects.py" },
  listRegions: { method: "cloud.regions.list", file: "src/gcore/resources/cloud/regions.py" },
  listInstances: {
    method: "cloud.instances.list",
    file: "src/gcore/resources/cloud/instances/instances.py",
    keywords: ["project_id", "region_id"],
  },
  createVolume: {
    method: "cloud.volumes.create",
    file: "src/gcore/resources/cloud/volumes.py",
    keywords: [
      "project_id",
      "region_id",
      "image_id",
      "name",
      "size",
      "source",
      "attachment_tag",
      "instance_id_to_attach_to",
      "lifecycle_policy_ids",
      "tags",
      "type_name",
      "snapshot_id",
    ],
  },
  getCurrentClient: { method: "iam.get_account_overview", file: "src/gcore/resources/iam/iam.py" },
  listAiTasks: { method: "streaming.ai_tasks.list", file: "src/gcore/resources/streaming/ai_tasks.py" },
  getProtectionProfile: {
    method: "security.profiles.get",
    file: "src/gcore/resources/security/profiles.py",
    positional: "id",
  },
  updateProtectionProfile: {
    method: "security.profiles.replace",
    file: "src/gcore/resources/security/profiles.py",
    positional: "id",
    keywords: ["fields", "profile_template", "ip_address", "site"],
  },
};

export const GCORE_PYTHON = {
  repository: "G-Core/gcore-python",
  version: "0.53.0",
  commit: "ebc7ee07e9136e6c9cc4588a8f9dc6a92de66a4d",
  /** `from gcore import Gcore`, then `Gcore(api_key=..., base_url=...)`. */
  client: { module: "gcore", name: "Gcore", tokenArgument: "api_key", baseUrlArgument: "base_url" },
  /** The header the client sends the token in, as `APIKey <token>` (`auth_headers`). */
  tokenHeader: "Authorization",
  methods: METHODS,
} as const;
