// Every operation of the spec, by operationId, typed by the generated `operations`: an operation
// of the generated types without a handler here (or a handler for none) fails compilation, and the
// server refuses to start when the description it serves and this registry disagree.
import * as cloud from "./cloud.js";
import * as iam from "./iam.js";
import * as reseller from "./reseller.js";
import * as security from "./security.js";
import * as storage from "./storage.js";
import * as streaming from "./streaming.js";
import type { HandlerRegistry } from "./types.js";

export const HANDLERS: HandlerRegistry = {
  listTasks: cloud.listTasks,
  getTask: cloud.getTask,
  listProjects: cloud.listProjects,
  listRegions: cloud.listRegions,
  listInstances: cloud.listInstances,
  createVolume: cloud.createVolume,
  checkVirtualGpuClusterLimits: cloud.checkVirtualGpuClusterLimits,
  listQuotaLimitRequests: reseller.listQuotaLimitRequests,
  getCurrentClient: iam.getCurrentClient,
  listAiTasks: streaming.listAiTasks,
  getProtectionProfile: security.getProtectionProfile,
  updateProtectionProfile: security.updateProtectionProfile,
  putStorageNotificationEvent: storage.putStorageNotificationEvent,
};

export type {
  AnswerOf,
  ApiRequest,
  BodyOf,
  Handler,
  HandlerRegistry,
  OperationId,
  PathOf,
  QueryOf,
} from "./types.js";
