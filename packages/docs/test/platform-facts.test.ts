// The reference shows what the platform's published descriptions document beyond the seed
// (spec/platform-facts.yaml) on each operation, as "documented by the platform, not by this
// description", and nothing where the record has no fact the seed leaves open. From the reference
// document the site embeds (no browser: the note is HTML in a description, as the notes for what is
// left open, which the browser tests already render and check for contrast). The same for the
// operations the platform documents and the description does not (the record's extensions): a
// section of the reference's introduction, Markdown with one HTML block, as the introduction's other
// sections, which the browser tests already render.
import { EXTENSION_HEADER } from "@platform-api/simulator";
import { loadBundle, platformFacts } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../src/layout.js";
import { isObject, listOperations } from "../src/operations.js";
import {
  EXTENSIONS_TITLE,
  markPlatformExtensions,
  platformExtensionsMarkdown,
} from "../src/platform-facts.js";
import { referenceDocument } from "../src/reference.js";
import { htmlText } from "../src/search-index.js";

const record = platformFacts();
const { doc } = referenceDocument(loadBundle());
const operations = listOperations(doc);
const HEADING = "Documented by the platform, not by this description:";
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

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

describe("the operations the platform documents beyond the description, in the reference", () => {
  const extensions = record.extensions ?? [];
  const intro = isObject(doc.info) ? String(doc.info.description) : "";
  const sectionOf = (text: string) => text.slice(text.indexOf(`## ${EXTENSIONS_TITLE}`));

  it("the record has extensions, none of them an operation of the description", () => {
    expect(extensions.length).toBeGreaterThan(0);
    const described = new Set(operations.map((o) => `${o.method} ${o.path}`));
    for (const e of extensions) expect(described.has(`${e.method} ${e.path}`), e.id).toBe(false);
  });

  it("are one section of the introduction, a heading Redoc lists, after the rest of it", () => {
    expect(intro.split(`\n## ${EXTENSIONS_TITLE}\n`)).toHaveLength(2);
    // Nothing of the introduction after it: the note on what the description leaves open stays
    // in that section.
    expect(sectionOf(intro)).not.toMatch(/\n#{1,2} /);
    expect(sectionOf(intro)).not.toContain("unspecified-note");
    expect(intro.indexOf('class="unspecified-note"')).toBeLessThan(intro.indexOf(EXTENSIONS_TITLE));
  });

  it("says they are not part of the description and the suite never judges them", () => {
    const text = htmlText(sectionOf(intro));
    expect(text).toContain("this description does not describe at all");
    expect(text).toContain("the conformance suite never judges them");
  });

  it.each(extensions.map((e) => [e.id, e] as const))(
    "shows %s with its method, path, statuses, fields, the simulator's mark and source",
    (id, e) => {
      const section = sectionOf(intro);
      const start = section.indexOf(`id="platform-extension-${id}"`);
      expect(start).toBeGreaterThan(0);
      const shown = section.slice(start, section.indexOf("</div>", start));
      expect(shown).toContain(`<code>${escapeHtml(`${e.method.toUpperCase()} ${e.path}`)}</code>`);
      expect(shown).toContain(`<code>${escapeHtml(e.platformOperationId)}</code>`);
      for (const status of e.statuses) expect(shown).toContain(`<code>${escapeHtml(status)}</code>`);
      for (const f of e.fields)
        expect(shown, f.field).toMatch(new RegExp(`<code>${escapeRe(escapeHtml(f.field))}</code>: [a-z]`));
      expect(shown).toContain(`<code>${EXTENSION_HEADER}: ${escapeHtml(id)}</code>`);
      for (const source of [e.source, e.fieldsSource, ...(e.confirmedBy ?? [])].filter(
        (s) => s !== undefined,
      ))
        expect(shown).toContain(
          `${escapeHtml(source.repository)}, <code>${escapeHtml(source.path)}</code> at commit <code>${source.commit}</code>`,
        );
    },
  );

  it("renders no section for a record without extensions", () => {
    for (const without of [
      { ...record, extensions: [] },
      { ...record, extensions: undefined },
    ]) {
      expect(platformExtensionsMarkdown(without)).toBeUndefined();
      const bare = structuredClone(loadBundle());
      const before = isObject(bare.info) ? bare.info.description : undefined;
      expect(markPlatformExtensions(bare, without)).toEqual([]);
      expect(isObject(bare.info) && bare.info.description).toBe(before);
    }
  });

  it("escapes what the record says, and keeps it one HTML block of Markdown", () => {
    const [first] = extensions;
    if (!first) throw new Error("the record has no extension");
    const hostile = {
      ...record,
      extensions: [
        {
          ...first,
          path: "/x/{id}<script>alert(1)</script>",
          platformOperationId: 'a"b<i>',
          note: "one\n\n# not a heading <img src=x onerror=alert(1)>",
          source: { ...first.source, repository: "o/<b>r</b>" },
        },
      ],
    };
    const markdown = platformExtensionsMarkdown(hostile) ?? "";
    expect(markdown).not.toMatch(/<script|<img|<i>|<b>/);
    expect(markdown).toContain("/x/{id}&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(markdown).toContain("a&quot;b&lt;i&gt;");
    expect(markdown).toContain("o/&lt;b&gt;r&lt;/b&gt;");
    // A blank line would end the HTML block and let Markdown read the rest as a heading.
    expect(markdown.split("\n\n")).toHaveLength(2);
  });
});
