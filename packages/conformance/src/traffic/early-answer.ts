// An upstream may answer a request before it has read the request's body and then close the
// connection (an early refusal of a large body: 400, 413). The proxy's next write of the body meets
// the closed connection (EPIPE, ECONNRESET), and Node destroys the socket at once, with the answer
// still unread in the kernel's buffer: the client would get the proxy's 502 where the upstream had
// answered. A socket given to `keepAnswerOnWriteError` treats a failed write as the end of writing
// only: it goes on reading until its read side ends (the answer is parsed and passed on as usual),
// and only then is it destroyed with the write's error.

import type { Socket } from "node:net";

const WRITE_ERRORS = new Set(["EPIPE", "ECONNRESET", "ERR_STREAM_DESTROYED", "ERR_STREAM_WRITE_AFTER_END"]);
const HOLDER = Symbol("keeps the answer on a write error");

interface Holder {
  /** Told once when a write fails and the socket is kept for reading: stop writing the body. */
  onWriteFailed: () => void;
}

type KeptSocket = Socket & { [HOLDER]?: Holder };

const isWriteError = (error: unknown): error is NodeJS.ErrnoException => {
  const e = error as NodeJS.ErrnoException | undefined;
  if (e?.code === undefined || !WRITE_ERRORS.has(e.code)) return false;
  // A read that met the reset is the read side's end: that one destroys.
  return e.syscall !== "read";
};

/**
 * Makes `socket` keep reading after a failed write (see above); `onWriteFailed` is the current
 * request's (a kept-alive socket serves one request after another).
 */
export function keepAnswerOnWriteError(socket: Socket, onWriteFailed: () => void): void {
  const kept = socket as KeptSocket;
  const holder = kept[HOLDER];
  if (holder) {
    holder.onWriteFailed = onWriteFailed;
    return;
  }
  const current: Holder = { onWriteFailed };
  kept[HOLDER] = current;
  const destroy = socket.destroy.bind(socket);
  let held: Error | undefined;
  const release = () => {
    if (!socket.destroyed) destroy(held);
  };
  socket.destroy = (error?: Error) => {
    const readOn = !socket.readableEnded && socket.readable;
    if (isWriteError(error) && readOn) {
      if (held === undefined) {
        held = error;
        // Node marks the readable side of a duplex errored with the write's error, and an errored
        // readable drops what it reads: the answer would never be parsed. Reading is what is kept,
        // so the readable side alone is cleared (a public setter of the stream state, on Node 20,
        // 22 and 24 alike); the writable side stays errored, nothing more is written.
        (socket as unknown as { _readableState: { errored: Error | null } })._readableState.errored = null;
        socket.once("end", () => setImmediate(release));
        current.onWriteFailed();
      }
      return socket;
    }
    return destroy(error);
  };
}
