// The guides: all present in reading order, their links and spec tables checked at build time,
// the tables equal to the description, and every TypeScript block compiles against the client.
import { loadBundle, loadModel, paginatedOperations, taskPollingOf } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import {
  expandSpecTables,
  GUIDE_ORDER,
  type LinkTargets,
  loadGuides,
  renderMarkdown,
} from "../src/guides.js";
import { type Json, listOperations } from "../src/operations.js";
import { pollingIntervalsTable, rateLimitsTable } from "../src/spec-tables.js";
import { guideBlocks, shownProblems } from "./shown-typescript.js";

const bundle = loadBundle();
const model = loadModel();
const guides = loadGuides();
const targets: LinkTargets = {
  operationIds: new Set(listOperations(bundle).map((op) => op.operationId)),
  guideSlugs: new Set(GUIDE_ORDER),
  operationHref: (id) => `../reference/index.html#op-${id}`,
};

describe("guides", () => {
  it("are those of GUIDE_ORDER, in its order, each with a title and a summary", () => {
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
    const { intervals } = taskPollingOf(model);
    const rows = table.split("\n").slice(2);
    expect(rows).toHaveLength(intervals.length);
    intervals.forEach((interval, i) => {
      expect(rows[i]).toContain(`| ${interval.operation} |`);
      expect(rows[i]).toContain(interval.taskType ? `| \`${interval.taskType}\` |` : "| not shown |");
      const every = interval.pollIntervalSeconds;
      expect(rows[i]).toMatch(new RegExp(`\\| (${every} s|${every / 60} min) \\|$`));
    });
  });

  it("writes durations the way the platform's documentation does: minutes from 5 min up", () => {
    const doc = withPolling([
      { operation: "Long", typicalDurationSeconds: { min: 300, max: 900 }, pollIntervalSeconds: 30 },
      {
        operation: "Short",
        taskType: "short_one",
        typicalDurationSeconds: { min: 60, max: 120 },
        pollIntervalSeconds: 5,
      },
      { operation: "Mixed", typicalDurationSeconds: { min: 90, max: 600 }, pollIntervalSeconds: 300 },
    ]);
    expect(pollingIntervalsTable(doc).split("\n").slice(2)).toEqual([
      "| Long | not shown | 5-15 min | 30 s |",
      "| Short | `short_one` | 60-120 s | 5 s |",
      "| Mixed | not shown | 90-600 s | 5 min |",
    ]);
  });

  it("shows the rate limits and paginated operations of the description", () => {
    const limits = expandSpecTables("<!-- spec:rate-limits -->", bundle, "test");
    const rows = limits.split("\n").slice(2);
    const { rateLimits } = model.conventions;
    expect(rows).toHaveLength(rateLimits.length);
    rateLimits.forEach((limit, i) => {
      expect(rows[i]).toContain(`| ${limit.limit} per `);
      expect(rows[i]).toContain(`| \`${limit.exceededStatus}\` |`);
    });
    const paginated = expandSpecTables("<!-- spec:paginated-operations -->", bundle, "test");
    const listed = paginatedOperations(model);
    expect(listed.length).toBeGreaterThan(0);
    expect(paginated.split("\n").slice(2)).toHaveLength(listed.length);
    for (const op of listed) expect(paginated).toContain(`(ref:${op.operationId})`);
  });

  it("names the period of a rate limit in words where it is a second, a minute or an hour", () => {
    const doc: Json = structuredClone(bundle);
    doc["x-rate-limits"] = [1, 60, 3600, 7].map((periodSeconds, i) => ({
      id: `limit-${i}`,
      description: `Limit ${i}`,
      appliesTo: i === 0 ? "all" : `other-${i}`,
      limit: 40 + i,
      periodSeconds,
      per: "ip-address",
      exceededStatus: 429,
    }));
    expect(rateLimitsTable(doc).split("\n").slice(2)).toEqual([
      "| Limit 0 | 40 per second | ip address | `429` |",
      "| Limit 1 | 41 per minute | ip address | `429` |",
      "| Limit 2 | 42 per hour | ip address | `429` |",
      "| Limit 3 | 43 per 7 s | ip address | `429` |",
    ]);
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

  // Checked in one program with the reference's samples (shown-typescript.ts).
  it("have TypeScript blocks that compile against @platform-api/client", () => {
    expect(guideBlocks.length).toBeGreaterThanOrEqual(6);
    const problems = shownProblems();
    const own = ["(program)", ...guideBlocks.map((b) => b.name)].filter((name) => problems.has(name));
    expect(Object.fromEntries(own.map((name) => [name, problems.get(name)]))).toEqual({});
  });
});

/** A copy of the description whose task polling lists the given intervals. */
function withPolling(intervals: unknown[]): Json {
  const doc: Json = structuredClone(bundle);
  const getTask = listOperations(doc).find((op) => op.operationId === taskPollingOf(model).operationId);
  const polling = getTask?.node["x-task-polling"];
  if (!getTask || typeof polling !== "object") throw new Error("no x-task-polling in the description");
  getTask.node["x-task-polling"] = { ...polling, intervals };
  return doc;
}
