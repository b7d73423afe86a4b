// Reading an answer's body whole inside the attempt (its timeout and the caller's signal still
// linked), bounded in size, and handing it on as a Response over the bytes read: openapi-fetch
// then parses it without waiting on the network, and a body that stalls or never ends fails the
// attempt instead of hanging the caller after the headers.

const EMPTY: Uint8Array<ArrayBuffer> = new Uint8Array(0);

type Bytes = Uint8Array<ArrayBuffer>;

/** An answer whose body was read whole by the transport: `bodyBytes` is what it held. */
export class BufferedResponse extends Response {
  readonly bodyBytes: Bytes;
  private readonly from: string;
  constructor(bytes: Bytes, original: Response) {
    super(bytes, original);
    this.bodyBytes = bytes;
    this.from = original.url;
  }
  /** The URL the answer came from, as the original Response said (a constructed one has none). */
  override get url(): string {
    return this.from;
  }
}

/** Why a body was refused: its declared size (Content-Length), or undefined when the bytes read passed the limit. */
export type TooLarge = (declared: number | undefined) => Error;

/**
 * The body of `response` as bytes, at most `limit` of them: `tooLarge` makes the error thrown as
 * soon as the Content-Length or the bytes read pass it (the rest is never read). A read that the
 * attempt's signal aborts rejects with the signal's reason, as fetch specifies.
 */
export async function readBody(response: Response, limit: number, tooLarge: TooLarge): Promise<Bytes> {
  const body = response.body;
  if (body === null) return EMPTY;
  const declared = response.headers.get("content-length");
  if (declared !== null && Number(declared) > limit) {
    body.cancel().catch(() => {});
    throw tooLarge(Number(declared));
  }
  const reader = body.getReader();
  let first: Bytes | undefined;
  let more: Bytes[] | undefined;
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limit) {
      reader.cancel().catch(() => {});
      throw tooLarge(undefined);
    }
    if (first === undefined) first = value;
    else if (more === undefined) more = [first, value];
    else more.push(value);
  }
  if (more === undefined) return first ?? EMPTY;
  const whole = new Uint8Array(size);
  let at = 0;
  for (const chunk of more) {
    whole.set(chunk, at);
    at += chunk.byteLength;
  }
  return whole;
}

/** Statuses whose Response may carry no body (the constructor refuses one). */
const NULL_BODY = new Set([101, 103, 204, 205, 304]);

/** The answer, its body read whole within `limit` bytes. */
export async function buffered(response: Response, limit: number, tooLarge: TooLarge): Promise<Response> {
  if (response.body === null || NULL_BODY.has(response.status)) return response;
  return new BufferedResponse(await readBody(response, limit, tooLarge), response);
}
