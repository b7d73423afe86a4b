/** An API error the simulator answers with: the status and a message saying what was wrong. */
export class ApiError extends Error {
  constructor(
    readonly status: 400 | 401 | 403 | 404 | 429 | 500,
    message: string,
  ) {
    super(message);
    this.name = "ApiError";
  }
}

export const notFound = (what: string) => new ApiError(404, `${what} does not exist.`);
export const badRequest = (message: string) => new ApiError(400, message);
