// The judge's traffic counts (src/judge/traffic-counts.ts): what the report's `traffic` says of the
// exchanges, and the operations the spec does not describe, a few listed by name.

import { describe, expect, it } from "vitest";
import { createTrafficCounts } from "../src/judge/traffic-counts.js";

describe("traffic counts", () => {
  it("counts exchanges, those judged, without an answer, with a body too large", () => {
    const t = createTrafficCounts({ undescribed: 2 });
    for (let i = 0; i < 4; i++) t.exchange();
    t.unanswered();
    t.bodyDropped();
    t.judged();
    expect(t.counts).toEqual({ exchanges: 4, judged: 1, noAnswer: 1 });
    expect(t.droppedBodies).toBe(1);
    expect(t.undescribedSeen).toEqual({ count: 0, examples: [] });
  });

  it("counts every undescribed operation and names at most `undescribed`, each once", () => {
    const t = createTrafficCounts({ undescribed: 2 });
    for (const name of ["GET /a", "GET /a", "POST /b", "GET /c"]) t.undescribed(name);
    expect(t.undescribedSeen).toEqual({ count: 4, examples: ["GET /a", "POST /b"] });
    // A copy: what a summary gave does not change with the traffic after it.
    const seen = t.undescribedSeen;
    t.undescribed("GET /d");
    expect(seen.count).toBe(4);
  });
});
