// The merged bundle (dist/openapi.json): the seed plus the platform's published facts where the
// seed is silent, each cited. In-process: the merge is a pure function of the seed's bundle and the
// record, so these tests call it directly on copies.
import { describe, expect, it } from "vitest";
import {
  mergePlatformFacts,
  PLATFORM_REQUIRED_KEY,
  readFacts,
  SOURCE_KEY,
} from "../scripts/merge-platform.mjs";
import { isObject, type Json, loadBundle } from "./bundle.js";

interface Citation {
  fact: string;
  repository: string;
  path: string;
  commit: string;
}
interface Fact {
  id: string;
  kind: string;
  seed: string;
  fills?: string[];
  [key: string]: unknown;
}
interface Facts {
  sources: { repository: string; commit: string }[];
  operations: Record<string, Fact[]>;
}

const seed = loadBundle(undefined, { seed: true });
const merged = loadBundle();
const facts = readFacts() as Facts;
const all = Object.values(facts.operations).flat();

/** Every node of a document that has `key`, with its pointer. */
function nodesWith(doc: unknown, key: string): { at: string; node: Json }[] {
  const found: { at: string; node: Json }[] = [];
  const walk = (node: unknown, at: string) => {
    if (Array.isArray(node)) {
      for (const [i, child] of node.entries()) walk(child, `${at}/${i}`);
    } else if (isObject(node)) {
      if (key in node) found.push({ at, node });
      for (const [k, child] of Object.entries(node))
        walk(child, `${at}/${k.replaceAll("~", "~0").replaceAll("/", "~1")}`);
    }
  };
  walk(doc, "");
  return found;
}

const citations = nodesWith(merged, SOURCE_KEY).flatMap(({ at, node }) =>
  (node[SOURCE_KEY] as Citation[]).map((c) => ({ at, ...c })),
);

describe("the merged bundle", () => {
  it("is the merge of the seed's bundle and the record, as committed inputs make it", () => {
    expect(mergePlatformFacts(seed, facts)).toEqual(merged);
  });

  it("cites every fact where the seed is silent, and none where it disagrees", () => {
    const cited = new Set(citations.map((c) => c.fact));
    const silent = all.filter((f) => f.seed === "silent").map((f) => f.id);
    expect(silent.filter((id) => !cited.has(id))).toEqual([]);
    const disagreeing = all.filter((f) => f.seed === "disagrees").map((f) => f.id);
    expect(disagreeing.length).toBeGreaterThan(0);
    expect(disagreeing.filter((id) => cited.has(id))).toEqual([]);
  });

  it("cites a repository and full commit of the record's sources on every citation", () => {
    const commits = new Map(facts.sources.map((s) => [s.repository, s.commit]));
    for (const c of citations) {
      expect(commits.get(c.repository), `${c.at} ${c.fact}`).toBe(c.commit);
      expect(c.path.length, `${c.at} ${c.fact}`).toBeGreaterThan(0);
    }
  });

  it("leaves the seed's bundle the seed's word alone", () => {
    expect(nodesWith(seed, SOURCE_KEY)).toEqual([]);
    expect(nodesWith(seed, PLATFORM_REQUIRED_KEY)).toEqual([]);
  });

  it("states as required only once: by the seed, by the platform, or by inference", () => {
    for (const { at, node } of nodesWith(merged, PLATFORM_REQUIRED_KEY)) {
      const platform = node[PLATFORM_REQUIRED_KEY] as string[];
      const required = (node.required as string[] | undefined) ?? [];
      const inferred = (node["x-inferred-required"] as string[] | undefined) ?? [];
      expect(
        platform.filter((n) => !required.includes(n)),
        at,
      ).toEqual([]);
      expect(
        platform.filter((n) => inferred.includes(n)),
        at,
      ).toEqual([]);
    }
  });

  it("takes out of x-unspecified each sentence a fact fills", () => {
    const filled = all.flatMap((f) => f.fills ?? []);
    expect(filled.length).toBeGreaterThan(0);
    const left = new Set(
      nodesWith(merged, "x-unspecified").flatMap(({ node }) => node["x-unspecified"] as string[]),
    );
    const before = new Set(
      nodesWith(seed, "x-unspecified").flatMap(({ node }) => node["x-unspecified"] as string[]),
    );
    for (const sentence of filled) expect(before.has(sentence), sentence).toBe(true);
    // A sentence may stand elsewhere for another operation; where the fact's operation had it, it is gone.
    expect(left.size).toBeLessThan(before.size);
  });
});

describe("the merge refuses", () => {
  const withFact = (operationId: string, change: (fact: Fact) => Fact, id: string): Facts => ({
    ...facts,
    operations: {
      ...facts.operations,
      [operationId]: (facts.operations[operationId] ?? []).map((f) => (f.id === id ? change(f) : f)),
    },
  });

  it("a fact marked silent that changes what the seed states", () => {
    const disagreeing = all.find((f) => f.seed === "disagrees" && f.kind === "parameter");
    if (!disagreeing) throw new Error("the record has no disagreeing parameter fact to turn");
    const operationId = Object.keys(facts.operations).find((op) =>
      facts.operations[op]?.some((f) => f.id === disagreeing.id),
    ) as string;
    const { seedSays: _, ...rest } = disagreeing;
    const record = withFact(operationId, () => ({ ...rest, seed: "silent" }), disagreeing.id);
    expect(() => mergePlatformFacts(seed, record)).toThrow(/mark the fact seed: disagrees/);
  });

  it("a fact that fills a sentence the description does not say", () => {
    const [operationId, list] = Object.entries(facts.operations)[0] as [string, Fact[]];
    const first = list.find((f) => f.seed === "silent") as Fact;
    const record = withFact(operationId, (f) => ({ ...f, fills: ["No such sentence."] }), first.id);
    expect(() => mergePlatformFacts(seed, record)).toThrow(/fills "No such sentence\."/);
  });

  it("an operation the description does not have", () => {
    const record = { ...facts, operations: { ...facts.operations, noSuchOperation: all.slice(0, 1) } };
    expect(() => mergePlatformFacts(seed, record)).toThrow(/noSuchOperation is not in the description/);
  });
});
