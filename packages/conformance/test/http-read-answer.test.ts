// Reading an answer within its byte bound, in-process (a stand-in for the answer's stream).

import type { IncomingMessage } from "node:http";
import { PassThrough } from "node:stream";
import { describe, expect, it } from "vitest";
import { cutMessage } from "../src/http/errors.js";
import { readAnswer, TooLarge } from "../src/http/read-answer.js";

const answer = () =>
  Object.assign(new PassThrough(), {
    statusCode: 200,
    headers: { "content-type": "application/json", "set-cookie": ["a=1", "b=2"] },
  }) as unknown as IncomingMessage & PassThrough;

function read(res: IncomingMessage, maxBytes: number) {
  return new Promise<{ whole?: string; cut?: TooLarge; failed?: Error }>((done) =>
    readAnswer(res, maxBytes, {
      whole: (text) => done({ whole: text }),
      cut: (cut) => done({ cut }),
      failed: (error) => done({ failed: error }),
    }),
  );
}

// In-process, no timer of their own: the bound is for a machine under load, never a wait.
describe("readAnswer", { timeout: 30_000 }, () => {
  it("a body within the bound is read whole, chunk by chunk, as UTF-8", async () => {
    const res = answer();
    const reading = read(res, 8);
    res.write(Buffer.from([0xc3]));
    res.end(Buffer.from([0xa9, 0x21]));
    expect(await reading).toEqual({ whole: "é!" });
  });

  it("one byte past the bound cuts it, with the status and headers kept for the evidence", async () => {
    const res = answer();
    const reading = read(res, 4);
    res.write("1234");
    res.write("5");
    const { cut } = await reading;
    expect(cut).toBeInstanceOf(TooLarge);
    expect(cut?.message).toBe(cutMessage(4));
    expect(cut?.status).toBe(200);
    expect(cut?.headers).toEqual({ "content-type": "application/json", "set-cookie": "a=1, b=2" });
  });

  it("an answer that breaks off is the read's failure", async () => {
    const res = answer();
    const reading = read(res, 4);
    res.destroy(new Error("aborted"));
    expect((await reading).failed?.message).toBe("aborted");
  });
});
