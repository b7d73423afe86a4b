// Operations the platform documents and the spec does not describe that the simulator serves
// anyway, because the platform's own clients cannot finish without them: the extensions of
// spec/platform-facts.yaml, by their id there. They are apart from HANDLERS (which match the spec's
// operations exactly), and the server refuses to start when the record's extensions and this
// registry do not name the same ones. Every answer is marked as outside the spec (EXTENSION_HEADER).

import { EXTENSION_HEADER, type PlatformExtension } from "@platform-api/spec";
import { notFound } from "../errors.js";
import type { Caller, Store } from "../store.js";
import type { OperationId } from "./types.js";

/** Sent with every answer of an extension, naming its id in spec/platform-facts.yaml (the spec package's). */
export { EXTENSION_HEADER };

export interface ExtensionRequest {
  /** Path parameters as the path gave them (text): an extension has no route schema of the spec's. */
  params: Readonly<Record<string, string>>;
  caller: Caller;
  store: Store;
}

export interface ExtensionHandler {
  /**
   * The spec's operation whose security the extension shares: the one that creates what it reads,
   * so the same tokens reach it and a read-only token may read it.
   */
  securityOf: OperationId;
  /** Stops the start when the record says something of the extension the handler cannot keep to. */
  check(extension: PlatformExtension): void;
  handle(extension: PlatformExtension, request: ExtensionRequest): { status: 200; body: unknown };
}

/** A path parameter that names a resource by number: anything else names none (404). */
function resourceNumber(text: string | undefined, what: string): number {
  if (text === undefined || !/^[0-9]{1,15}$/.test(text)) throw notFound(`${what} ${text ?? ""}`.trimEnd());
  return Number(text);
}

/** The value a status field of the record's 200 answer may take, or a start that stops. */
function statusValue(extension: PlatformExtension, value: string): string {
  const field = extension.fields.find((f) => f.status === "200" && f.field === "status");
  const values = (field?.schema as { enum?: unknown[] } | undefined)?.enum;
  if (!values?.includes(value))
    throw new Error(
      `The simulator answers a created volume's status as "${value}"; spec/platform-facts.yaml's ${extension.id} lists ${values?.join(", ") ?? "no status values"}.`,
    );
  return value;
}

/** A volume the create task has finished is ready for use: the platform's "available". */
const READY = "available";

/**
 * The volume read the platform's SDK ends `create_and_poll` with: the volume named by the finished
 * task's created_resources, with every field of the platform's answer the simulator knows. The
 * simulator's choices where the platform's answer has more than it keeps: a volume is bootable
 * when made from an image, no volume is a root volume (none is attached), and it has no tags.
 */
const volumeGet: ExtensionHandler = {
  securityOf: "createVolume",
  check: (extension) => {
    statusValue(extension, READY);
  },
  handle: (extension, { params, caller, store }) => {
    const { volume, region, createdAtMs, creatorTaskId } = store.createdVolume(
      store.clientOf(caller),
      resourceNumber(params.project_id, "Project"),
      resourceNumber(params.region_id, "Region"),
      params.volume_id ?? "",
    );
    return {
      status: 200,
      body: {
        id: volume.id,
        name: volume.name,
        size: volume.size,
        volume_type: volume.type_name,
        status: statusValue(extension, READY),
        project_id: volume.project_id,
        region_id: volume.region_id,
        region: region.display_name,
        created_at: new Date(createdAtMs).toISOString(),
        bootable: volume.source === "image",
        is_root_volume: false,
        tags: [],
        creator_task_id: creatorTaskId,
        updated_at: null,
      },
    };
  },
};

export const EXTENSIONS: Readonly<Record<string, ExtensionHandler>> = {
  "volume-get": volumeGet,
};

/** Stops the start when the record's extensions and EXTENSIONS do not name the same ones. */
export function checkExtensions(extensions: readonly PlatformExtension[]): void {
  const listed = new Set(extensions.map((e) => e.id));
  const missing = [...listed].filter((id) => !Object.hasOwn(EXTENSIONS, id));
  const unknown = Object.keys(EXTENSIONS).filter((id) => !listed.has(id));
  if (missing.length > 0)
    throw new Error(
      `spec/platform-facts.yaml has extensions without a simulator handler: ${missing.join(", ")}.`,
    );
  if (unknown.length > 0)
    throw new Error(
      `Simulator extension handlers name extensions spec/platform-facts.yaml does not list: ${unknown.join(", ")}.`,
    );
  for (const extension of extensions) EXTENSIONS[extension.id]?.check(extension);
}
