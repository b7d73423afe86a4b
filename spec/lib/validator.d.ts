/** Follows local `$ref`s ("#/components/...") to the node they point at. */
export declare function resolveRef<T = Record<string, unknown>>(
  doc: Record<string, unknown>,
  node: unknown,
): T | undefined;

export declare function pointer(...segments: (string | number)[]): string;

export interface ResponseToValidate {
  method: string;
  /** the path template as in the description, e.g. "/cloud/v1/tasks/{task_id}" */
  path: string;
  status: number;
  contentType?: string | null;
  body?: unknown;
  hasBody?: boolean;
}

export interface SpecValidator {
  /** Errors of `value` against the schema at a JSON pointer such as "#/components/schemas/Task". */
  validateSchema(schemaPointer: string, value: unknown): string[];
  /** Errors of an HTTP response against the operation it answers; empty when valid. */
  validateResponse(response: ResponseToValidate): string[];
}

export declare function createSpecValidator(doc: Record<string, unknown>): SpecValidator;
