// The first stage of an exchange: the client's request is taken in. What the judge will read of it
// is noted as it comes (the time, the path, the end-to-end headers, a bounded copy of its body), the
// exchange is counted in flight until it is recorded, and a client that gives up drops the request
// to the upstream with it.

import type { ClientRequest, IncomingMessage, ServerResponse } from "node:http";
import { MAX_JUDGED_BODY_BYTES } from "../../shared/exchange.js";
import { type BodyCopy, bodyCopy } from "./copy.js";
import { endToEnd, pathOf } from "./headers.js";

/** How an exchange ended: the upstream's answer as it came, or none (`status` null) and why. */
export interface Ending {
  status: number | null;
  statusText: string;
  rawHeaders: string[];
  error?: string;
}

/** An exchange in flight, as each stage reads and adds to it. */
export interface Passage {
  readonly req: IncomingMessage;
  readonly res: ServerResponse;
  /** When the request came (ms since the epoch), and when on the monotonic clock (its duration's start). */
  readonly at: number;
  readonly started: number;
  /** The path and query the client asked for (a request-target in absolute form is read for its path only). */
  readonly url: string;
  readonly requestRawHeaders: string[];
  readonly requestCopy: BodyCopy;
  readonly responseCopy: BodyCopy;
  /** What in the upstream's answer breaks HTTP itself (the judge reports it with the evidence). */
  readonly invalid: string[];
  /**
   * No body: the request may go to the upstream a second time, on a fresh connection, when the
   * kept-alive one it was written on turns out closed (forward.ts).
   */
  readonly bodiless: boolean;
  /** The upstream's answer has begun (its status line came). */
  responded: boolean;
  /** The request to the upstream now open. */
  current?: ClientRequest;
  /** Ends the exchange: the first call counts, later ones are ignored. */
  end(ending: Ending): void;
}

/**
 * Takes in a request. `record` is called once, when the exchange ends, after the answer is on its
 * way (the client never waits for the judge); until it has returned the exchange is in `inFlight`.
 */
export function accept(
  req: IncomingMessage,
  res: ServerResponse,
  inFlight: Set<Promise<void>>,
  record: (passage: Passage, ending: Ending, durationMs: number) => void,
): Passage {
  let finished: () => void = () => {};
  const passing = new Promise<void>((done) => {
    finished = () => {
      inFlight.delete(passing);
      done();
    };
  });
  inFlight.add(passing);
  let ended = false;
  const passage: Passage = {
    req,
    res,
    at: Date.now(),
    started: performance.now(),
    url: pathOf(req.url ?? "/"),
    requestRawHeaders: endToEnd(req.rawHeaders),
    requestCopy: bodyCopy(MAX_JUDGED_BODY_BYTES),
    responseCopy: bodyCopy(MAX_JUDGED_BODY_BYTES),
    invalid: [],
    bodiless: req.headers["content-length"] === undefined && req.headers["transfer-encoding"] === undefined,
    responded: false,
    end(ending) {
      if (ended) return;
      ended = true;
      const durationMs = performance.now() - passage.started;
      setImmediate(() => {
        try {
          record(passage, ending, durationMs);
        } finally {
          finished();
        }
      });
    },
  };
  // The client gave up before the answer was whole: the upstream request is dropped too.
  res.on("close", () => {
    if (!res.writableFinished) {
      passage.current?.destroy();
      passage.end({
        status: null,
        statusText: "",
        rawHeaders: [],
        error: "the client closed the connection before the answer was whole",
      });
    }
  });
  res.on("error", () => {}); // the client gone: "close" above says what there is to say
  req.on("error", () => {});
  req.on("data", (chunk: Buffer) => passage.requestCopy.add(chunk));
  return passage;
}
