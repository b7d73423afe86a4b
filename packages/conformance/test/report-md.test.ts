// report.md as a common renderer shows it (marked, GitHub-flavoured, which passes raw HTML through
// as GitHub's and most others' do): what a target or a HAR wrote in a reason, a path, an excerpt,
// a method or an id shows as text, in its own table cell, and opens no element of its own.

import { marked } from "marked";
import { describe, expect, it } from "vitest";
import { toJunit, toMarkdown } from "../src/report/report.js";
import type { Report } from "../src/shared/results.js";
import { actingCharacters } from "./acting-characters.js";
import { tokenPrefix } from "./token-prefix.js";

/** Markup and Markdown that would run, link, or break out of a code span or a table cell. */
const INJECTED =
  "<script>alert(1)</script><img src=x onerror=alert(1)> [x](javascript:alert(1)) ![i](http://evil/) `</code><b>b</b>` a|b **bold** &lt;i&gt;";
/** Characters that reverse or hide text, or drive a terminal. */
const INVISIBLE = "\u202egnp.exe\u2066\x1b[2J\u200b";

const report: Report = {
  target: `traffic recorded in /tmp/${INJECTED}.har`,
  startedAt: new Date(0).toISOString(),
  durationMs: 1234,
  options: {},
  summary: { passed: 0, failed: 1, warned: 1, skipped: 0 },
  scenarios: [
    {
      id: "schema.getTask",
      title: "getTask answers as the spec says",
      severity: "must",
      status: "failed",
      operation: "getTask",
      reason: `answered 200 ${INJECTED}\r\n<iframe src=x>\n\n${INVISIBLE}`,
      evidence: [
        {
          method: `GET${INJECTED}`,
          path: `/cloud/v1/tasks/\`${INJECTED}\`|`,
          status: 200,
          excerpt: `{"detail":"${INJECTED}"}\n| x | y |`,
        },
      ],
      durationMs: 12,
    },
    {
      id: "schema.listRegions",
      title: "listRegions answers as the spec says",
      severity: "should",
      status: "warned",
      operation: "listRegions",
      reason: INVISIBLE,
      evidence: [],
      durationMs: 1,
    },
  ],
  createdResources: [{ type: "task", id: `${INJECTED}\``, task_id: INJECTED }],
  traffic: {
    exchanges: 2,
    judged: 1,
    noAnswer: 0,
    undescribed: { count: 1, examples: [`GET ${INJECTED}`] },
    dropped: {},
    limits: { itemsPerWalk: 1, tokens: 1 },
  } as unknown as Report["traffic"],
};

/** The elements a report.md of ours renders to; anything else came from the text in it. */
const OURS = new Set(["h1", "h2", "h3", "p", "br", "strong", "code", "blockquote", "ul", "li"]);
const TABLE = new Set(["table", "thead", "tbody", "tr", "th", "td"]);

describe("report.md", () => {
  const markdown = toMarkdown(report);
  const html = marked.parse(markdown, { async: false, gfm: true });

  it("renders to no element or attribute but its own", () => {
    const tags = [...html.matchAll(/<\/?([a-z][a-z0-9]*)([^>]*)>/gi)].map(([tag, name, attributes]) => ({
      tag,
      name: (name as string).toLowerCase(),
      attributes: (attributes as string).trim(),
    }));
    // A web address in a target's text may be shown as a link (GitHub's renderer does so too): it
    // opens a page, it runs nothing. No other link, image or element comes from the text.
    const link = ({ name, attributes }: { name: string; attributes: string }) =>
      name === "a" && /^(href="https?:\/\/[^"]*")?$/.test(attributes);
    const foreign = tags.filter((t) => !OURS.has(t.name) && !TABLE.has(t.name) && !link(t));
    expect(foreign).toEqual([]);
    for (const t of tags.filter((t) => t.name !== "a"))
      expect(t.attributes, t.tag).toMatch(/^(align="(left|center|right)")?$/);
    expect(html).not.toMatch(/href="javascript:/);
    // Not vacuous: the injected text is there, as text.
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("[x](javascript:alert(1))");
  });

  it("keeps a reason's lines, CRLF or LF, inside its quote", () => {
    expect(markdown).toContain("\n> &lt;iframe src=x&gt;\n> \n> \\\\u202egnp");
    expect(markdown).not.toContain("\\x0d");
  });

  it("keeps each table row's cells: a | or a line break from a target splits nothing", () => {
    const rows = [...html.matchAll(/<tr>([\s\S]*?)<\/tr>/g)].map(
      ([, row]) => (row?.match(/<t[dh][ >]/g) ?? []).length,
    );
    // Evidence (5 cells: what the exchange is to the result, then 4; header and one row), every
    // scenario (5, header and two), created resources (5).
    expect(rows).toEqual([5, 5, 5, 5, 5, 5, 5]);
  });

  it("shows invisible and bidi characters as visible escapes", () => {
    expect(actingCharacters(markdown)).toEqual([]);
    expect(actingCharacters(html)).toEqual([]);
    // Shown as written once rendered (the escapes' backslashes are escaped in the Markdown).
    expect(html).toContain("\\u202egnp.exe\\u2066\\x1b[2J\\u200b");
  });
});

describe("report.md of a fuzz run", () => {
  const curl = `curl -sS -i -X GET 'http://127.0.0.1:4020/cloud/v1/tasks?task_type=\`\`\`${INJECTED}${INVISIBLE}' -H "Authorization: ${tokenPrefix}$GCORE_API_KEY"`;
  const fuzzReport: Report = {
    ...report,
    fuzz: {
      seed: 42,
      phases: ["coverage"],
      maxExamples: 25,
      requests: 10,
      findings: [
        {
          id: "fuzz.no-server-error.listTasks",
          check: "fuzz.no-server-error",
          operationId: "listTasks",
          severity: "must",
          phase: "coverage",
          seed: 42,
          problem: `answered 500 ${INJECTED}`,
          status: 500,
          request: {
            operationId: "listTasks",
            method: "GET",
            path: "/cloud/v1/tasks",
            params: {},
            fromRun: [],
            query: [],
            auth: "client",
          },
          curl,
        },
      ],
    },
  };
  const html = marked.parse(toMarkdown(fuzzReport), { async: false, gfm: true });

  it("shows each finding's reproducer in one code block that its backticks cannot close, with its phase and seed", () => {
    const blocks = [...html.matchAll(/<pre><code[^>]*>([\s\S]*?)<\/code><\/pre>/g)].map(
      ([, code]) => code ?? "",
    );
    expect(blocks).toHaveLength(1);
    expect(blocks[0]).toContain("```&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(blocks[0]).toContain(`${tokenPrefix}$GCORE_API_KEY`);
    expect(actingCharacters(html)).toEqual([]);
    expect(html).toContain("phase coverage, seed 42");
  });
});

describe("junit.xml", () => {
  it("shows bidi and control characters as visible escapes", () => {
    const xml = toJunit(report);
    expect(actingCharacters(xml, "\n\t\r")).toEqual([]);
    expect(xml).toContain("\\u202egnp.exe");
  });
});
