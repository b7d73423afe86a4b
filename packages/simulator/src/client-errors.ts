// Requests Node's HTTP parser refuses before any route sees them (a malformed header line, a
// request line and headers over LIMITS.headerBytes, a body that never arrives within the request
// timeout). They get the platform's error shape too — `{"message": …}` naming the problem —
// instead of Fastify's own body, and the connection is closed.

import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import { LIMITS } from "./limits.js";

export function answerClientError(
  error: NodeJS.ErrnoException,
  socket: Socket,
  requestTimeoutMs: number,
): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, message] = describe(error, requestTimeoutMs);
  const body = JSON.stringify({ message });
  if (socket.writable)
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  socket.destroy();
}

function describe(error: NodeJS.ErrnoException, requestTimeoutMs: number): [number, string] {
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT")
    return [
      408,
      `The request did not arrive whole within ${requestTimeoutMs} ms (a body shorter than its Content-Length?); send it again.`,
    ];
  if (error.code === "HPE_HEADER_OVERFLOW")
    return [
      431,
      `The request line and headers are larger than ${LIMITS.headerBytes} bytes, the most the simulator reads.`,
    ];
  const reason = (error as { reason?: string }).reason ?? error.message;
  return [400, `The request is not valid HTTP/1.1 (${reason}).`];
}
