import { documentsStatus, type OperationModel } from "@platform-api/spec";

/** An API error the simulator answers with: the status and a message saying what was wrong. */
export class ApiError extends Error {
  constructor(
    /** A status the operation documents (the errors plugin answers it as `{"message": …}`). */
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const notFound = (what: string) => new ApiError(404, `${what} does not exist.`);
export const badRequest = (message: string) => new ApiError(400, message);

/**
 * The status that refuses a request breaking the spec: 400, or 404 where the operation documents
 * no 400 (a value that names no resource), or none where it documents neither (listProjects,
 * getCurrentClient: no documented answer fits, so what cannot be refused is not checked).
 */
export function refusalStatus(operation: OperationModel): 400 | 404 | undefined {
  if (documentsStatus(operation, 400)) return 400;
  if (documentsStatus(operation, 404)) return 404;
  return undefined;
}
