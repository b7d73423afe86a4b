// The guides: all present in reading order, their links and spec tables checked at build time,
// the tables equal to the description, and every TypeScript block compiles against the client.
import { loadBundle } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import {
  expandSpecTables,
  GUIDE_ORDER,
  type LinkTargets,
  loadGuides,
  renderMarkdown,
  typescriptBlocks,
} from "../src/guides.js";
import { type Json, listOperations } from "../src/operations.js";
import { typecheck } from "./typescript.js";

const bundle = loadBundle();
const guides = loadGuides();
const targets: LinkTargets = {
  operationIds: new Set(listOperations(bundle).map((op) => op.operationId)),
  guideSlugs: new Set(GUIDE_ORDER),
  operationHref: (id) => `../reference/index.html#op-${id}`,
};

describe("guides", () => {
  it("are the eight the site promises, each with a title and a summary", () => {
    expect(guides.map((g) => g.slug)).toEqual([...GUIDE_ORDER]);
    for (const guide of guides) {
      expect(guide.title.length, guide.slug).toBeGreaterThan(3);
      expect(guide.summary.length, guide.slug).toBeGreaterThan(30);
      expect(guide.summary.startsWith("#"), guide.slug).toBe(false);
    }
  });

  it.each(guides.map((g) => [g.slug, g] as const))("%s renders with every link resolved", (slug, guide) => {
    const html = renderMarkdown(expandSpecTables(guide.markdown, bundle, slug), targets, slug);
    expect(html).toContain("<h1>");
    expect(html).not.toMatch(/href="(ref|guide):/);
    expect(html).not.toContain("<!-- spec:");
  });

  it("names the getting-started essentials: the header, the $ and single quotes", () => {
    const text = guides.find((g) => g.slug === "getting-started")?.markdown ?? "";
    expect(text).toContain("Authorization: APIKey");
    expect(text).toContain("$");
    expect(text.toLowerCase()).toContain("single quote");
  });

  it("shows the polling intervals of the description, not a copy", () => {
    const tasks = guides.find((g) => g.slug === "tasks")?.markdown ?? "";
    expect(tasks).toContain("<!-- spec:polling-intervals -->");
    const table = expandSpecTables("<!-- spec:polling-intervals -->", bundle, "test");
    const polling = listOperations(bundle).find((op) => op.node["x-task-polling"])?.node[
      "x-task-polling"
    ] as {
      intervals: { operation: string; pollIntervalSeconds: number }[];
    };
    const rows = table.split("\n").slice(2);
    expect(rows).toHaveLength(polling.intervals.length);
    polling.intervals.forEach((interval, i) => {
      expect(rows[i]).toContain(interval.operation);
      expect(rows[i]).toMatch(new RegExp(`\\| ${interval.pollIntervalSeconds} s \\|$`));
    });
    expect(table).toContain("| Create Kubernetes cluster | not shown | 5-15 min | 30 s |");
    expect(table).toContain("| Delete bare metal server | not shown | 60-120 s | 30 s |");
  });

  it("shows the rate limits and paginated operations of the description", () => {
    const limits = expandSpecTables("<!-- spec:rate-limits -->", bundle, "test");
    for (const limit of bundle["x-rate-limits"] as { limit: number }[])
      expect(limits).toContain(`| ${limit.limit} per `);
    expect(limits).toContain("100 per second");
    const paginated = expandSpecTables("<!-- spec:paginated-operations -->", bundle, "test");
    for (const op of listOperations(bundle).filter((o) => (o.node as Json)["x-pagination"]))
      expect(paginated).toContain(`(ref:${op.operationId})`);
  });

  it("refuses unknown links, links off the site and unknown tables, naming what is allowed", () => {
    expect(() => renderMarkdown("[x](ref:noSuchOperation)", targets, "g.md")).toThrow(
      /g\.md: unknown operation "noSuchOperation"/,
    );
    expect(() => renderMarkdown("[x](guide:nope)", targets, "g.md")).toThrow(/unknown guide "nope"/);
    expect(() => renderMarkdown("[x](https://example.com)", targets, "g.md")).toThrow(
      /leaves the site; use ref:<operationId>, guide:<slug>/,
    );
    expect(() => expandSpecTables("<!-- spec:nope -->", bundle, "g.md")).toThrow(
      /unknown table marker "spec:nope"; known: polling-intervals/,
    );
  });

  it("highlights code and gives headings anchors", () => {
    const html = renderMarkdown("# T\n\n## Polling `tasks`\n\n```ts\nconst a = 1;\n```\n", targets, "g.md");
    expect(html).toContain('<h2 id="polling-tasks">');
    expect(html).toContain('<span class="hljs-keyword">const</span>');
  });

  it("have TypeScript blocks that compile against @platform-api/client", () => {
    const sources = guides.flatMap((g) =>
      typescriptBlocks(g.markdown).map((code, i) => ({ name: `${g.slug} #${i + 1}`, code })),
    );
    expect(sources.length).toBeGreaterThanOrEqual(6);
    expect(Object.fromEntries(typecheck(sources, "guide-blocks"))).toEqual({});
  });
});
