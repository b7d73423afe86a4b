// Which operations a fuzz run calls, and the request each starts from: the run's project and
// region in the path (from discovery), the spec's example as the body. Read-only by default: an
// operation whose method is not GET may change something, so it needs --allow-writes (check_limits
// included: fuzz cannot know from the spec that a POST changes nothing).

import type { OperationModel } from "@platform-api/spec";
import picomatch from "picomatch";
import type { RunContext } from "../context.js";
import { isRecord } from "../json.js";
import { keyFor } from "../operations.js";
import { requestExample, specModel } from "../spec.js";
import { type FuzzRequest, newRequest } from "./request.js";

export interface Planned {
  operation: OperationModel;
  /** The request each case starts from; absent when the operation is skipped. */
  base?: FuzzRequest;
  /** Why it is not called. */
  skip?: string;
}

/** Whether calling the operation may change something (anything but GET). */
export const writes = (operation: OperationModel) => operation.method !== "get";

export function planOperations(run: RunContext, options: { only: string[]; uuid: () => string }): Planned[] {
  const selected = options.only.length === 0 ? () => true : picomatch(options.only);
  return specModel()
    .operations.filter((operation) => selected(operation.operationId))
    .map((operation) => plan(operation, run, options.uuid));
}

function plan(operation: OperationModel, run: RunContext, uuid: () => string): Planned {
  if (writes(operation) && !run.allowWrites)
    return { operation, skip: `${operation.method.toUpperCase()} may change something: pass --allow-writes` };
  if (keyFor(operation) === "reseller" && !run.target.resellerApiKey)
    return { operation, skip: `needs the reseller key (${run.keySources.resellerApiKey})` };
  const params: Record<string, string> = {};
  const fromRun: string[] = [];
  let unknownParameter: string | undefined;
  for (const parameter of operation.parameters.filter((p) => p.in === "path")) {
    const { projectId, regionId, protectionProfileId } = run.discovered;
    const own =
      parameter.name === "project_id" ? projectId : parameter.name === "region_id" ? regionId : undefined;
    if (own !== undefined) {
      params[parameter.name] = String(own);
      fromRun.push(parameter.name);
    } else if (parameter.format === "uuid") {
      // A random UUID names no resource: the answer must be the documented 404.
      params[parameter.name] = uuid();
      unknownParameter = parameter.name;
    } else if (operation.product === "security" && protectionProfileId !== undefined) {
      // The spec lists no protection profiles: the run is given one (--protection-profile-id).
      params[parameter.name] = String(protectionProfileId);
    } else
      return {
        operation,
        skip: `no value for its path parameter ${parameter.name} (${parameter.name === "project_id" || parameter.name === "region_id" ? "discovery found none" : "pass --protection-profile-id"})`,
      };
  }
  const base = newRequest(operation, params, fromRun);
  if (unknownParameter !== undefined) base.unknownParameter = unknownParameter;
  if (operation.requestBody) {
    const example = requestExample(operation);
    // The example's flavor is the spec's illustration; the run knows one the target offers.
    base.body =
      isRecord(example) && "flavor" in example && run.discovered.gpuFlavor !== undefined
        ? { ...example, flavor: run.discovered.gpuFlavor }
        : example;
  }
  return { operation, base };
}
