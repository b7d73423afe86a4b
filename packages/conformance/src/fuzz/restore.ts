// What fuzz changes in place it puts back. Nothing is replaced that was not read first: before any
// PUT goes out (a phase's, a replay's), the resource at its path is read with the GET of the same
// path; what was read is written back after the run (and on an interrupt), kept to the fields its
// write schema names (the read's other fields, ids and names, are not the write's). A PUT whose
// resource cannot be read — no GET at its path, or the read failed — is never sent, and the run
// says so. A read answering 404 names nothing to replace: the PUT may go (a target that then creates
// something lists it among the created resources). So a run with --allow-writes leaves a protection
// profile as it found it, as the main run's story does.

import type { OperationModel } from "@platform-api/spec";
import { operationById } from "@platform-api/spec";
import { requestSchemaPointer, schemaAt, specModel, specValidator } from "../facts/spec.js";
import type { FuzzRequest } from "../shared/finding.js";
import { isRecord } from "../shared/json.js";
import { urlOf } from "./request.js";

/** One resource read before a PUT, and what became of putting it back. */
export interface Restored {
  operationId: string;
  /** The resource's path as sent (no query). */
  path: string;
  /** "put back"; "not put back: <why>"; "not changed" when no PUT to it was sent after all. */
  outcome: string;
}

/** What the restorer needs of the session: an unguarded send, and the last answer's JSON body. */
export interface RawSender {
  send(request: FuzzRequest): Promise<{ status: number | null }>;
  lastBody(): unknown;
}

export interface Restorer {
  /** Undefined: the write may go out. Otherwise why it must not (said once per resource). */
  beforeWrite(request: FuzzRequest): Promise<string | undefined>;
  /** Marks a resource as changed (a PUT to it was sent). */
  wrote(request: FuzzRequest): void;
  /** Writes back every resource read and changed; what became of each. */
  putBack(): Promise<Restored[]>;
}

/** The read of the same resource: a GET at the write's path. */
export const readOf = (write: OperationModel) =>
  specModel().operations.find((o) => o.method === "get" && o.path === write.path);

/** Why an operation is never called by fuzz: it replaces what no read of the spec can give back. */
export function unrestorable(operation: OperationModel): string | undefined {
  if (operation.method !== "put" || readOf(operation)) return undefined;
  return `PUT replaces what no GET of the spec reads back (none at ${operation.path}): fuzz never writes what it cannot put back`;
}

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

interface Resource {
  operationId: string;
  path: string;
  /** The write that puts it back; absent when there is nothing to put back (404) or it cannot be. */
  write?: FuzzRequest;
  /** Why writes to it are not sent (the read failed, or what it gave cannot be written back). */
  refused?: string;
  changed: boolean;
}

export function createRestorer(raw: RawSender): Restorer {
  const resources = new Map<string, Resource>();
  const keyOf = (request: FuzzRequest) => `${request.operationId} ${urlOf({ ...request, query: [] })}`;

  async function read(request: FuzzRequest): Promise<Resource> {
    const operation = operationById(specModel(), request.operationId);
    const path = urlOf({ ...request, query: [] });
    const resource: Resource = { operationId: operation.operationId, path, changed: false };
    const reader = readOf(operation);
    if (!reader) {
      resource.refused = unrestorable(operation);
      return resource;
    }
    const { status } = await raw.send({
      ...request,
      operationId: reader.operationId,
      method: "GET",
      query: [],
      body: undefined,
    });
    const body = raw.lastBody();
    if (status === 404) return resource;
    if (status !== 200 || !isRecord(body)) {
      resource.refused = `it could not be read first (GET ${path} answered ${status ?? "nothing"}): not sent, so nothing is left changed`;
      return resource;
    }
    const pointer = requestSchemaPointer(operation);
    const write = kept(pointer, [], body);
    // A read the write schema cannot take back: nothing is changed that could not be put back.
    const problems = specValidator().validateSchema(pointer, write);
    if (problems.length > 0)
      resource.refused = `what GET ${path} answered does not fit its body (${problems.join("; ")}): not sent`;
    else resource.write = { ...request, query: [], body: write, unknownParameter: undefined };
    return resource;
  }

  return {
    async beforeWrite(request) {
      if (request.method !== "PUT") return undefined;
      const key = keyOf(request);
      let resource = resources.get(key);
      if (!resource) {
        resource = await read(request);
        resources.set(key, resource);
      }
      return resource.refused;
    },
    wrote(request) {
      const resource = resources.get(keyOf(request));
      if (resource) resource.changed = true;
    },
    async putBack() {
      const out: Restored[] = [];
      for (const resource of resources.values()) {
        if (resource.refused !== undefined || !resource.write) continue;
        if (!resource.changed) {
          out.push({ operationId: resource.operationId, path: resource.path, outcome: "not changed" });
          continue;
        }
        const { status } = await raw.send(resource.write);
        out.push({
          operationId: resource.operationId,
          path: resource.path,
          outcome:
            status !== null && status >= 200 && status < 300
              ? "put back"
              : `not put back: PUT ${resource.path} answered ${status ?? "nothing"}`,
        });
      }
      return out;
    },
  };
}
