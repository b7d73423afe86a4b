// What fuzz changes in place it puts back: an operation that replaces a resource (PUT) at the path
// a read (GET) of the same resource has is read before the phases and, after them, written back
// with what was read, kept to the fields its write schema names (the read's other fields, ids and
// names, are not the write's). So a run with --allow-writes leaves a protection profile as it found
// it, as the main run's story does; what it creates is listed instead (createdResources).

import type { OperationModel } from "@platform-api/spec";
import { isRecord } from "../json.js";
import { requestSchemaPointer, schemaAt, specModel, specValidator } from "../spec.js";
import type { Planned } from "./plan.js";
import type { FuzzRequest } from "./request.js";
import type { Session } from "./session.js";

export interface Snapshot {
  /** The write that puts the resource back, with what the read answered. */
  write: FuzzRequest;
  operationId: string;
  /** Why what was read cannot be written back (the write schema refuses it). */
  unusable?: string;
}

/** The read of the same resource: a GET at the write's path. */
const readOf = (write: OperationModel) =>
  specModel().operations.find((o) => o.method === "get" && o.path === write.path);

/** The JSON type of a value, as a schema's `type` names it. */
const jsonType = (value: unknown) =>
  value === null
    ? "null"
    : Array.isArray(value)
      ? "array"
      : Number.isInteger(value)
        ? "integer"
        : typeof value === "number"
          ? "number"
          : typeof value;

/** Whether a schema node's `type` (if it states one) admits the value's type. */
function admits(node: Record<string, unknown> | undefined, value: unknown): boolean {
  const type = node?.type;
  if (type === undefined) return true;
  const types = Array.isArray(type) ? type : [type];
  const actual = jsonType(value);
  return types.includes(actual) || (actual === "integer" && types.includes("number"));
}

/**
 * A read value kept to what the write schema at `segments` names: the properties it lists whose
 * read value has a type it admits (a read's template object is no write's template id), items of
 * its items.
 */
function kept(pointer: string, segments: string[], value: unknown): unknown {
  const node = schemaAt(pointer, ...segments);
  if (Array.isArray(value)) return value.map((item) => kept(pointer, [...segments, "items"], item));
  if (!isRecord(value) || !isRecord(node?.properties)) return value;
  return Object.fromEntries(
    Object.keys(node.properties)
      .filter((name) => value[name] !== undefined)
      .filter((name) => admits(schemaAt(pointer, ...segments, "properties", name), value[name]))
      .map((name) => [name, kept(pointer, [...segments, "properties", name], value[name])]),
  );
}

/** Reads each resource a planned PUT replaces, before anything changes it. */
export async function snapshot(planned: Planned[], session: Session): Promise<Snapshot[]> {
  const out: Snapshot[] = [];
  for (const { operation, base } of planned) {
    const read = base && operation.method === "put" && operation.requestBody ? readOf(operation) : undefined;
    if (!read || !base) continue;
    const { status } = await session.send(
      { ...base, operationId: read.operationId, method: "GET", query: [], body: undefined },
      "stateful",
    );
    const body = session.lastBody();
    if (status !== 200 || !isRecord(body)) continue;
    const pointer = requestSchemaPointer(operation);
    const write = kept(pointer, [], body);
    // A read the write schema cannot take back is not sent: said, not half-done.
    const problems = specValidator().validateSchema(pointer, write);
    out.push({
      operationId: operation.operationId,
      write: { ...base, query: [], body: write },
      ...(problems.length > 0 ? { unusable: problems.join("; ") } : {}),
    });
  }
  return out;
}

/** Writes each snapshot back; says which could not be (the answer's status). */
export async function putBack(snapshots: Snapshot[], session: Session): Promise<string[]> {
  const failed: string[] = [];
  for (const { write, operationId, unusable } of snapshots) {
    if (unusable !== undefined) {
      failed.push(`${operationId} (what was read does not fit its body: ${unusable})`);
      continue;
    }
    const { status } = await session.send(write, "stateful");
    if (status === null || status < 200 || status >= 300)
      failed.push(`${operationId} (${status ?? "no answer"})`);
  }
  return failed;
}
