// Which operations a fuzz run calls, and the request each starts from: the run's project and
// region in the path (from discovery), the spec's example as the body. Read-only by default: an
// operation whose method is not GET may change something, so it needs --allow-writes (check_limits
// included: fuzz cannot know from the spec that a POST changes nothing).

import type { OperationModel } from "@platform-api/spec";
import picomatch from "picomatch";
import { keyFor } from "../facts/operations.js";
import { requestExample, specModel } from "../facts/spec.js";
import type { RunContext } from "../shared/context.js";
import type { FuzzRequest } from "../shared/finding.js";
import { isRecord } from "../shared/json.js";
import { newRequest } from "./request.js";
import { unrestorable } from "./restore.js";

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

/**
 * The value the run itself holds for a path parameter (discovery's project and region, the
 * protection profile it was given), as a string; undefined when it holds none. A replay puts the
 * new target's own there, by the same rule.
 */
export function runValueOf(
  operation: OperationModel,
  name: string,
  discovered: RunContext["discovered"],
): string | undefined {
  const { projectId, regionId, protectionProfileId } = discovered;
  const own =
    name === "project_id"
      ? projectId
      : name === "region_id"
        ? regionId
        : // The spec lists no protection profiles: the run is given one (--protection-profile-id).
          operation.product === "security" &&
            operation.parameters.find((p) => p.in === "path" && p.name === name)?.format !== "uuid"
          ? protectionProfileId
          : undefined;
  return own === undefined ? undefined : String(own);
}

/** Why a write is not sent unless the user asked: it may change something. */
export const writesNeedAsking = (operation: OperationModel) =>
  `${operation.method.toUpperCase()} may change something: pass --allow-writes`;

function plan(operation: OperationModel, run: RunContext, uuid: () => string): Planned {
  if (writes(operation) && !run.allowWrites) return { operation, skip: writesNeedAsking(operation) };
  const cannotPutBack = unrestorable(operation);
  if (cannotPutBack !== undefined) return { operation, skip: cannotPutBack };
  if (keyFor(operation) === "reseller" && !run.target.resellerApiKey)
    return { operation, skip: `needs the reseller key (${run.keySources.resellerApiKey})` };
  const params: Record<string, string> = {};
  const fromRun: string[] = [];
  let unknownParameter: string | undefined;
  for (const parameter of operation.parameters.filter((p) => p.in === "path")) {
    const own = runValueOf(operation, parameter.name, run.discovered);
    if (own !== undefined) {
      params[parameter.name] = own;
      fromRun.push(parameter.name);
    } else if (parameter.format === "uuid") {
      // A random UUID names no resource: the answer must be the documented 404.
      params[parameter.name] = uuid();
      unknownParameter = parameter.name;
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
