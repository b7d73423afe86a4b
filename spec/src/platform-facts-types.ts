// The shape of the platform's published facts (platform-facts.yaml): a leaf of its own, so the
// generated data and the loader both depend on it and not on each other.
import type { SchemaNode } from "./model/types.js";

/** Where a fact was read: a file of a repository at a commit, and where in it. */
export interface PlatformFactSource {
  readonly repository: string;
  readonly path: string;
  /** 40 hexadecimal digits. */
  readonly commit: string;
  /** JSON pointer into the (YAML or JSON) description the path names. */
  readonly pointer?: string;
  readonly line?: number;
}

export interface FactBase {
  /** Stable name of the fact; spec/README.md names each disagreement by it. */
  readonly id: string;
  /** "silent": the seed leaves this open; "disagrees": the seed says otherwise (and wins). */
  readonly seed: "silent" | "disagrees";
  /** What the seed says, where it disagrees. */
  readonly seedSays?: string;
  readonly note?: string;
  readonly source: PlatformFactSource;
  readonly confirmedBy?: readonly PlatformFactSource[];
  /** Sentences of the description's `x-unspecified` this fact answers: the merged bundle drops them. */
  readonly fills?: readonly string[];
}

export interface ParameterFact extends FactBase {
  readonly kind: "parameter";
  readonly name: string;
  readonly in: "query" | "path" | "header";
  /** The key is sent once per value (`state=ERROR&state=FINISHED`). */
  readonly repeatable?: boolean;
  readonly deprecated?: boolean;
  readonly schema: SchemaNode;
}

export interface FieldFact extends FactBase {
  readonly kind: "field";
  /** Which body the field path starts from. */
  readonly at: "request" | "response";
  /** For `at: "response"`: the status whose body it is. */
  readonly status?: string;
  /** Dot-separated property names, `[]` after a name for the items of an array. */
  readonly field: string;
  /** Required within the object that holds it. */
  readonly required?: boolean;
  /** Required when the sibling field named by the one key has one of the listed values. */
  readonly requiredWhen?: { readonly [sibling: string]: readonly string[] };
  readonly schema: SchemaNode;
}

export interface StatusFact extends FactBase {
  readonly kind: "status";
  readonly status: string;
  /** The body's schema, when the platform gives one. */
  readonly schema?: SchemaNode;
}

export type PlatformFact = ParameterFact | FieldFact | StatusFact;

/** A field of an extension's answer: its path in the body answered with `status`. */
export interface ExtensionField {
  readonly status: string;
  /** Dot-separated property names, `[]` after a name for the items of an array. */
  readonly field: string;
  /** Required within the object that holds it. */
  readonly required?: boolean;
  readonly schema: SchemaNode;
}

/**
 * An operation the platform documents and this description does not describe: a fact about the
 * platform, never part of the spec. Whatever serves one marks it as an extension; the suite never
 * judges it.
 */
export interface PlatformExtension {
  readonly id: string;
  readonly method: "get" | "put" | "post" | "delete" | "patch";
  /** The platform's path template (`{name}` for a path parameter); none of the description's. */
  readonly path: string;
  /** The operation's id in the platform's own description. */
  readonly platformOperationId: string;
  readonly parameters?: readonly {
    readonly name: string;
    readonly in: "query" | "path" | "header";
    readonly required?: boolean;
    readonly schema: SchemaNode;
  }[];
  /** Every status the platform documents for it. */
  readonly statuses: readonly string[];
  readonly fields: readonly ExtensionField[];
  readonly note?: string;
  /** Where the operation is described. */
  readonly source: PlatformFactSource;
  /** Where its answer's fields are described, when that is elsewhere. */
  readonly fieldsSource?: PlatformFactSource;
  readonly confirmedBy?: readonly PlatformFactSource[];
}

export interface PlatformFacts {
  readonly version: 1;
  /** Every repository and commit the facts were read from. */
  readonly sources: readonly {
    readonly repository: string;
    readonly commit: string;
    readonly paths: readonly string[];
  }[];
  /** Facts by the operationId of this description. */
  readonly operations: { readonly [operationId: string]: readonly PlatformFact[] };
  /** Operations of the platform outside this description. */
  readonly extensions?: readonly PlatformExtension[];
}
