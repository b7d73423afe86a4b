// The reference renders the merged bundle: what the platform's published descriptions add to the
// seed (spec/platform-facts.yaml, entered by spec/scripts/merge-platform.mjs) is in the schema, and
// each node it adds or amends says its source once, as a mark linking to the file at its commit; each
// operation that shows a mark says once what the mark means and where each marked thing was read,
// and lists the facts where the seed disagrees (and wins), which are not in the schema. From the
// reference document the site embeds (no browser: this is HTML in descriptions; the browser tests
// render it, check its contrast, and check that no note left open contradicts a marked field). The
// same for the operations the platform documents and the description does not (the record's
// extensions): a section of the reference's introduction, Markdown with one HTML block, as the
// introduction's other sections.
import { EXTENSION_HEADER, loadBundle, platformFacts, pointer, resolvePointer } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { escapeHtml } from "../src/layout.js";
import { isObject, type Json, listOperations } from "../src/operations.js";
import {
  type Citation,
  citationUrl,
  EXTENSIONS_TITLE,
  markPlatformExtensions,
  PLATFORM_LEGEND,
  platformExtensionsMarkdown,
} from "../src/platform-facts.js";
import { referenceDocument } from "../src/reference.js";
import { htmlText } from "../src/search-index.js";

const record = platformFacts();
const bundle = loadBundle();
const { doc } = referenceDocument(bundle);
const operations = listOperations(doc);
const escapeRe = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
const count = (text: string, part: string) => text.split(part).length - 1;
const description = (at: string) => {
  const node = resolvePointer<Json>(doc, at);
  return isObject(node) && typeof node.description === "string" ? node.description : "";
};
/** The box the reference showed before the schema held the facts: it repeated and contradicted the schema. */
const OLD_BOX = "Documented by the platform, not by this description:";

/** Every node of the bundle that cites a source, with its pointer and its parent's. */
const cited: { at: string; parent: string; node: Json; citations: Citation[] }[] = [];
(function walk(node: unknown, path: string[]) {
  if (Array.isArray(node)) {
    for (const [i, child] of node.entries()) walk(child, [...path, String(i)]);
    return;
  }
  if (!isObject(node)) return;
  const list = node["x-platform-source"];
  if (Array.isArray(list))
    cited.push({
      at: pointer(...path),
      parent: pointer(...path.slice(0, -2)),
      node,
      citations: list as Citation[],
    });
  for (const [key, child] of Object.entries(node)) walk(child, [...path, key]);
})(bundle, []);
const ownNodes = cited.filter((c) => !c.at.includes("/allOf/"));
const conditions = cited.filter((c) => c.at.includes("/allOf/"));
const facts = Object.values(record.operations).flat();

describe("the platform's marks in the reference", () => {
  it("the bundle cites sources on parameters, fields and statuses, and on conditions", () => {
    expect(ownNodes.some((c) => c.at.includes("/parameters/"))).toBe(true);
    expect(ownNodes.some((c) => c.at.includes("/properties/"))).toBe(true);
    expect(ownNodes.some((c) => /\/responses\/\d+$/.test(c.at))).toBe(true);
    expect(conditions.length).toBeGreaterThan(0);
  });

  // A status's description is shown inside the button that opens its answer (Redoc): a link there
  // would be a control inside a control; the operation's paragraph links its source.
  const isStatus = (at: string) => /\/responses\/[^/]+$/.test(at);

  it.each(ownNodes.filter((c) => !isStatus(c.at)).map((c) => [c.at, c] as const))(
    "%s says its source once, linking to the file at its commit",
    (at, c) => {
      const shown = description(at);
      expect(count(shown, 'class="platform-mark"'), shown).toBe(1);
      const href = shown.match(/<a class="platform-mark" href="([^"]+)"/)?.[1];
      const first = c.citations[0];
      if (!first) throw new Error(`${at} cites nothing`);
      expect(href).toBe(
        escapeHtml(`https://github.com/${first.repository}/blob/${first.commit}/${first.path}`),
      );
      expect(first.commit).toMatch(/^[0-9a-f]{40}$/);
      // The seed's own words stay first.
      const seedWords = description(at).split(' <a class="platform-mark"')[0] ?? "";
      const own = resolvePointer<Json>(bundle, at)?.description;
      if (typeof own === "string" && own.trim()) expect(seedWords.startsWith(own.trim())).toBe(true);
    },
  );

  it.each(ownNodes.filter((c) => isStatus(c.at)).map((c) => [c.at, c] as const))(
    "%s says its source once, in its mark's title, with no link inside the answer's button",
    (at, c) => {
      const shown = description(at);
      expect(count(shown, 'class="platform-mark"'), shown).toBe(1);
      expect(shown, "no link in a status's description").not.toMatch(/<a\s/);
      const title = shown.match(/<span class="platform-mark" title="([^"]+)"/)?.[1] ?? "";
      for (const citation of c.citations) expect(title).toContain(escapeHtml(citation.commit));
      // Where it was read, linked: the operation's paragraph on the marks.
      const operation = at.split("/responses/")[0] ?? "";
      const first = c.citations[0];
      if (!first) throw new Error(`${at} cites nothing`);
      expect(description(operation)).toContain(
        escapeHtml(`https://github.com/${first.repository}/blob/${first.commit}/${first.path}`),
      );
    },
  );

  it("a field required when a sibling has a value says its source on the field, not twice", () => {
    for (const c of conditions) {
      const then = isObject(c.node.then) ? c.node.then : {};
      const names = Array.isArray(then.required) ? then.required.map(String) : [];
      expect(names.length, c.at).toBeGreaterThan(0);
      for (const name of names) {
        const at = `${c.parent}/properties/${name}`;
        expect(count(description(at), 'class="platform-mark"'), at).toBe(1);
      }
    }
  });

  it("links a source cited by line to that line", () => {
    const source = { repository: "o/r", path: "src/a b.py", commit: "a".repeat(40), line: 30 };
    expect(citationUrl(source)).toBe(`https://github.com/o/r/blob/${"a".repeat(40)}/src/a%20b.py#L30`);
  });

  it("marks nothing the bundle does not cite", () => {
    const marks = (JSON.stringify(doc).match(/class=\\"platform-mark\\" (href|title)/g) ?? []).length;
    // Each cited node is marked once; a condition is marked on its field.
    expect(marks).toBe(ownNodes.length);
  });
});

describe("what each operation says of the marks", () => {
  const byOperation = new Map(
    operations.map((op) => {
      const shown = reached(op.node);
      const ids = cited
        .filter((c) => shown.has(resolvePointer<Json>(doc, c.at) as Json))
        .flatMap((c) => c.citations.map((x) => x.fact));
      return [op.operationId, new Set(ids)] as const;
    }),
  );
  const citationsOf = (operationId: string) => byOperation.get(operationId) ?? new Set<string>();

  it("no operation shows the old box: the schema holds what it listed", () => {
    for (const op of operations)
      expect(String(op.node.description ?? ""), op.operationId).not.toContain(OLD_BOX);
  });

  it("says what the mark means once on each operation that shows one, and nowhere else", () => {
    const shown = operations.filter((op) => citationsOf(op.operationId).size > 0);
    const without = operations.filter((op) => citationsOf(op.operationId).size === 0);
    expect(shown.map((op) => op.operationId)).toEqual(
      expect.arrayContaining(["listTasks", "checkVirtualGpuClusterLimits"]),
    );
    expect(without.length).toBeGreaterThan(0);
    for (const op of shown)
      expect(count(String(op.node.description), PLATFORM_LEGEND), op.operationId).toBe(1);
    for (const op of without)
      expect(String(op.node.description ?? ""), op.operationId).not.toContain(PLATFORM_LEGEND);
  });

  it("lists where each marked thing of an operation was read: repository, file, full commit, pointer", () => {
    for (const op of operations) {
      const text = String(op.node.description ?? "");
      for (const id of citationsOf(op.operationId)) {
        const source = cited.flatMap((c) => c.citations).find((x) => x.fact === id);
        if (!source) throw new Error(id);
        const item = `${escapeHtml(source.repository)}</a>, <code>${escapeHtml(source.path)}</code> at commit <code>${source.commit}</code>`;
        expect(text, `${op.operationId} ${id}`).toContain(item);
        if (source.pointer)
          expect(text, `${op.operationId} ${id}`).toContain(`<code>${escapeHtml(source.pointer)}</code>`);
      }
    }
  });

  it("shows the record's own note of a fact, in its list", () => {
    const noted = facts.filter((f) => f.seed === "silent" && f.note);
    expect(noted.length).toBeGreaterThan(0);
    for (const fact of noted) {
      const holders = operations.filter((op) => citationsOf(op.operationId).has(fact.id));
      expect(holders.length, fact.id).toBeGreaterThan(0);
      for (const op of holders)
        expect(String(op.node.description), `${op.operationId} ${fact.id}`).toContain(
          escapeHtml(fact.note ?? "").replace(/\s+/g, " "),
        );
    }
  });

  it("lists each fact the seed disagrees with on its operation, where the seed wins, and never in the schema", () => {
    const disagreeing = Object.entries(record.operations).flatMap(([id, list]) =>
      list.filter((f) => f.seed === "disagrees").map((f) => [id, f] as const),
    );
    expect(disagreeing.length).toBeGreaterThan(0);
    const citedIds = new Set(cited.flatMap((c) => c.citations.map((x) => x.fact)));
    for (const [operationId, fact] of disagreeing) {
      expect(citedIds.has(fact.id), fact.id).toBe(false);
      const text = String(operations.find((o) => o.operationId === operationId)?.node.description);
      const section = text.slice(text.indexOf("Where the seed wins"));
      expect(text, fact.id).toContain("Where the seed wins");
      const named = fact.kind === "parameter" ? fact.name : fact.kind === "status" ? fact.status : fact.field;
      expect(section, fact.id).toContain(`<code>${escapeHtml(named)}</code>`);
      expect(section, fact.id).toContain(`<code>${fact.source.commit}</code>`);
    }
  });
});

/** Every object an operation reaches through $refs (the docs' own walk is what is under test elsewhere). */
function reached(root: Json): Set<Json> {
  const seen = new Set<Json>();
  const visit = (node: unknown) => {
    if (Array.isArray(node)) {
      for (const child of node) visit(child);
      return;
    }
    if (!isObject(node) || seen.has(node)) return;
    seen.add(node);
    if (typeof node.$ref === "string") visit(resolvePointer(doc, node.$ref));
    for (const child of Object.values(node)) visit(child);
  };
  visit(root);
  return seen;
}

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
