// Reading an answer's body whole inside the attempt (its timeout and the caller's signal still
// linked), bounded in size, and handing it on as a Response over the bytes read: openapi-fetch
// then parses it without waiting on the network, and a body that stalls or never ends fails the
// attempt instead of hanging the caller after the headers.

type Bytes = Uint8Array<ArrayBuffer>;
const EMPTY: Bytes = new Uint8Array(0);
const decoder = new TextDecoder();

/**
 * An answer whose body the transport has read whole (`bodyBytes`), with the original's status,
 * headers and URL (it is never a redirect: the transport follows none). Its readers answer from
 * those bytes instead of streaming them again: a ReadableStream per answer would be a measurable
 * share of a request's cost. Status and headers are read from the original, never given to the
 * Response constructor: it refuses what a server may send (a status above 599, a reason phrase
 * with a control character), and copying headers costs.
 */
export class BufferedResponse extends Response {
  // `declare`d fields are set in the constructor: no field declaration is emitted, for bundle size.
  declare readonly bodyBytes: Bytes;
  declare private readonly original: Response;
  constructor(bytes: Bytes, original: Response) {
    super();
    this.bodyBytes = bytes;
    this.original = original;
  }
  override get status(): number {
    return this.original.status;
  }
  override get statusText(): string {
    return this.original.statusText;
  }
  override get ok(): boolean {
    return this.original.ok;
  }
  override get headers(): Headers {
    return this.original.headers;
  }
  override get url(): string {
    return this.original.url;
  }
  override get body(): ReadableStream<Bytes> {
    return new Response(this.bodyBytes).body as ReadableStream<Bytes>;
  }
  override async text(): Promise<string> {
    return decoder.decode(this.bodyBytes);
  }
  override async json(): Promise<unknown> {
    return JSON.parse(decoder.decode(this.bodyBytes));
  }
  override async bytes(): Promise<Bytes> {
    return this.bodyBytes.slice();
  }
  override async arrayBuffer(): Promise<ArrayBuffer> {
    return this.bodyBytes.slice().buffer;
  }
  override blob(): Promise<Blob> {
    return this.copy().blob();
  }
  override formData(): Promise<FormData> {
    return this.copy().formData();
  }
  override clone(): Response {
    return new BufferedResponse(this.bodyBytes, this.original);
  }
  /** A plain Response over the bytes, for the readers used too rarely to be worth their own code. */
  private copy(): Response {
    return new Response(this.bodyBytes, { headers: this.headers });
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

/** The answer, its body read whole within `limit` bytes. */
export async function buffered(response: Response, limit: number, tooLarge: TooLarge): Promise<Response> {
  if (response.body === null) return response;
  return new BufferedResponse(await readBody(response, limit, tooLarge), response);
}
