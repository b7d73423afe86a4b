// What the client gets when the proxy has no answer of the upstream's to pass on.

/** The part of a server's response the proxy's own answer writes to. */
export interface Answerable {
  readonly headersSent: boolean;
  destroy(): void;
  writeHead(status: number, headers: Record<string, string>): unknown;
  end(text: string): unknown;
}

/** The proxy's own 502 (`x-conformance-observe` says why), or a cut when an answer was begun. */
export function proxyAnswer(res: Answerable, kind: string, message: string): void {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  res.writeHead(502, { "content-type": "text/plain; charset=utf-8", "x-conformance-observe": kind });
  res.end(`conformance observe: ${message}\n`);
}
