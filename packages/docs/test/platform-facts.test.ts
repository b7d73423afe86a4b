// The reference shows what the platform's published descriptions document beyond the seed
// (spec/platform-facts.yaml) on each operation, as "documented by the platform, not by this
// description", and nothing where the record has no fact the seed leaves open. From the reference
// document the site embeds (no browser: the note is HTML in a description, as the notes for what is
// left open, which the browser tests already render and check for contrast).
import { loadBundle, platformFacts } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { listOperations } from "../src/operations.js";
import { referenceDocument } from "../src/reference.js";

const record = platformFacts();
const { doc } = referenceDocument(loadBundle());
const operations = listOperations(doc);
const HEADING = "Documented by the platform, not by this description:";

describe("the platform's documented facts in the reference", () => {
  const withFacts = Object.entries(record.operations).filter(([, facts]) =>
    facts.some((f) => f.seed === "silent"),
  );

  it("there are operations with facts the seed leaves open", () => {
    expect(withFacts.map(([id]) => id)).toEqual(
      expect.arrayContaining(["listTasks", "checkVirtualGpuClusterLimits"]),
    );
  });

  it.each(withFacts)("%s shows each of them", (operationId, facts) => {
    const op = operations.find((o) => o.operationId === operationId);
    const description = String(op?.node.description ?? "");
    expect(description).toContain(HEADING);
    for (const fact of facts.filter((f) => f.seed === "silent")) {
      const named = fact.kind === "parameter" ? fact.name : fact.kind === "status" ? fact.status : fact.field;
      expect(description, fact.id).toContain(`<code>${named}</code>`);
    }
    // Where it was read from, by repository and commit.
    const source = facts[0]?.source;
    expect(description).toContain(`${source?.repository} at <code>${source?.commit.slice(0, 12)}</code>`);
  });

  it("shows no note where the record has no fact the seed leaves open", () => {
    const without = operations.filter(
      (o) => !(record.operations[o.operationId] ?? []).some((f) => f.seed === "silent"),
    );
    expect(without.length).toBeGreaterThan(0);
    for (const op of without)
      expect(String(op.node.description ?? ""), op.operationId).not.toContain(HEADING);
  });

  it("shows a repeatable parameter as such, with its values", () => {
    const listTasks = String(operations.find((o) => o.operationId === "listTasks")?.node.description);
    const state = record.operations.listTasks?.find((f) => f.kind === "parameter" && f.name === "state");
    expect(state?.kind === "parameter" && state.repeatable).toBe(true);
    expect(listTasks).toMatch(
      /query parameter <code>state<\/code>: array of string, one of <code>[A-Z]+<\/code>.*; repeatable/,
    );
  });
});
