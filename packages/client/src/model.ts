// The shape of the client's view of the spec model (src/generated/client-model.ts, generated from
// the spec's runtime model): only what the client reads, so the bundle carries nothing else.
import type {
  RuntimeConventions,
  RuntimeOperation,
  RuntimePagination,
  RuntimeParameter,
  RuntimeTaskPolling,
  ValueFacts,
} from "@platform-api/spec/model";

/** What the client's parameter checks read of a value (src/validation.ts). */
export interface CheckedFacts
  extends Pick<ValueFacts, "type" | "enum" | "minimum" | "maximum" | "repeatable"> {
  readonly items?: CheckedFacts;
}

/**
 * A parameter as the client checks it. Without its `default`: the only default the client reads,
 * an offset list's page size, is the list's `pageSize`.
 */
export interface ClientParameter extends CheckedFacts, Pick<RuntimeParameter, "name" | "in"> {}

type OffsetPagination = Extract<RuntimePagination, { style: "offset" }>;
/** An offset list's pagination, with the page size of a walk the caller gave no limit for. */
export interface ClientOffsetPagination extends OffsetPagination {
  /** the limit parameter's maximum, else its default */
  readonly pageSize: number;
}
export type ClientPagination = ClientOffsetPagination | Extract<RuntimePagination, { style: "page" }>;

export interface ClientOperation extends Pick<RuntimeOperation, "method" | "path" | "product"> {
  /** Only the path and query parameters: the client checks these and no others. */
  readonly parameters: readonly ClientParameter[];
  /** Whether the operation admits the reseller token (its `security` names ResellerAPIKey). */
  readonly reseller?: true;
  readonly pagination?: ClientPagination;
  /** Of an operation that starts a task (x-async-task), the operation that reads the task. */
  readonly asyncTask?: { readonly poll: Pick<RuntimeOperation, "method" | "path"> };
}

export interface ClientModel {
  readonly operations: readonly ClientOperation[];
  readonly conventions: Omit<RuntimeConventions, "taskPolling"> & {
    readonly taskPolling?: Omit<RuntimeTaskPolling, "operationId">;
  };
}
