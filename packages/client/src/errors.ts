/**
 * A client was created with options it cannot work with. Thrown by `createClient`, before any
 * request, so that a bad key is never discovered through a 401. The message says what was wrong
 * and what is allowed; it never contains the key itself.
 */
export class ClientConfigError extends Error {
  override name = "ClientConfigError";
  /** the option that was wrong, e.g. "apiKey" */
  readonly option: string;

  constructor(option: string, message: string) {
    super(`${option}: ${message}`);
    this.option = option;
  }
}
