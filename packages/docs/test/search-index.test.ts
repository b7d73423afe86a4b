// The site's search index as the build writes it (assets/search-index.js): every guide section and
// every operation and every section of the description's introduction in it, loaded the way the
// browser loads it (MiniSearch.loadJS with the shared tokenizer), finding what the browser tests look
// for with the browser's own choice of results and snippets (assets/search-results.js).
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { buildModel, loadBundle, paginatedOperations } from "@platform-api/spec";
import MiniSearch from "minisearch";
import { beforeAll, describe, expect, it } from "vitest";
import "../assets/search-terms.js";
import "../assets/search-results.js";
import { Marked, type Tokens } from "marked";
import { loadGuides, outline } from "../src/guides.js";
import { listOperations } from "../src/operations.js";
import { operationAnchor } from "../src/reference.js";
import { htmlText, type SearchIndexFile, sectionSlug } from "../src/search-index.js";
import { builtSite } from "./built-site.js";

const bundle = loadBundle();
const operations = listOperations(bundle);
let out: string;
let file: SearchIndexFile;
let search: MiniSearch;

beforeAll(() => {
  out = builtSite();
  const sandbox: { globalThis?: unknown; platformSearchIndex?: SearchIndexFile } = {};
  sandbox.globalThis = sandbox;
  runInNewContext(readFileSync(join(out, "assets/search-index.js"), "utf8"), sandbox);
  if (!sandbox.platformSearchIndex) throw new Error("search-index.js set no platformSearchIndex");
  file = sandbox.platformSearchIndex;
  search = MiniSearch.loadJS(file.index, { ...file.options, tokenize: globalThis.platformSearchTerms });
});

const ids = () =>
  Object.values((file.index as unknown as { documentIds: Record<string, string> }).documentIds);

describe("the search index", () => {
  it("holds every guide, every section of it, and every operation", () => {
    const all = new Set(ids());
    for (const guide of loadGuides()) {
      expect(all.has(`guides/${guide.slug}.html`), guide.slug).toBe(true);
      for (const section of outline(guide.markdown))
        expect(all.has(`guides/${guide.slug}.html#${section.id}`), `${guide.slug}#${section.id}`).toBe(true);
    }
    for (const op of operations)
      expect(all.has(`reference/index.html#${operationAnchor(op)}`), op.operationId).toBe(true);
  });

  it("splits names whole and by their parts, the same for the index and a query", () => {
    expect(globalThis.platformSearchTerms("POST /v3/check_limits checkVirtualGpuClusterLimits")).toEqual([
      "POST",
      "v3",
      "check_limits",
      "check",
      "limits",
      "checkVirtualGpuClusterLimits",
      "check",
      "Virtual",
      "Gpu",
      "Cluster",
      "Limits",
    ]);
  });

  it("finds an operation by its path's last segment, its id, or words of its summary", () => {
    const op = operations.find((o) => o.path.endsWith("/check_limits"));
    expect(op).toBeDefined();
    const id = `reference/index.html#${op ? operationAnchor(op) : ""}`;
    for (const query of ["check_limits", op?.operationId ?? "", "check quota virtual gpu"])
      expect(globalThis.platformSearchResults.find(search, query)[0]?.id, query).toBe(id);
  });

  it('tolerates a typo: "regoins" finds the regions operations and the guides on regions', () => {
    const regions = operations.filter((o) => o.path.split("/").at(-1) === "regions");
    expect(regions.length).toBeGreaterThan(0);
    const found = globalThis.platformSearchResults.find(search, "regoins");
    for (const op of regions)
      expect(
        found.some((r) => r.id === `reference/index.html#${operationAnchor(op)}`),
        op.operationId,
      ).toBe(true);
    expect(found.some((r) => r.kind === "guide")).toBe(true);
    // Read as the word meant, which each result's snippet or title then marks.
    for (const result of found) {
      expect(result.terms, result.id).toContain("regions");
      const parts = [...result.titleParts, ...result.snippetParts];
      expect(
        parts.some((p) => p.mark && /^regions$/i.test(p.text)),
        result.id,
      ).toBe(true);
    }
  });

  it("holds each section of the description's introduction at Redoc's anchor", () => {
    const description = String((bundle.info as { description?: string }).description);
    const headings = new Marked()
      .lexer(description)
      .filter((t): t is Tokens.Heading => t.type === "heading" && (t as Tokens.Heading).depth <= 2);
    expect(headings.length).toBeGreaterThan(2);
    const all = new Set(ids());
    for (const heading of headings)
      expect(all.has(`reference/index.html#section/${sectionSlug(heading.text)}`), heading.text).toBe(true);
    // Redoc's slugify keeps case and turns spaces into dashes.
    expect(sectionSlug("Rate limits")).toBe("Rate-limits");
  });

  it('finds every paginated operation of the spec model and the reference\'s rule for "pagination", each with a marked snippet', () => {
    const found = globalThis.platformSearchResults.find(search, "pagination");
    const paginated = paginatedOperations(buildModel(bundle));
    expect(paginated.length).toBeGreaterThan(0);
    for (const op of paginated) {
      const result = found.find((r) => r.id === `reference/index.html#${operationAnchor(op)}`);
      expect(result, op.operationId).toBeDefined();
      expect(
        result?.snippetParts.some((p) => p.mark && /^paginat/i.test(p.text)),
        op.operationId,
      ).toBe(true);
    }
    const rule = found.find((r) => r.kind === "reference" && r.title === "Pagination");
    expect(rule?.id).toBe(`reference/index.html#section/${sectionSlug("Pagination")}`);
    expect(rule?.snippetParts.some((p) => p.mark)).toBe(true);
    expect(found.length).toBeLessThanOrEqual(12);
  });
});

describe("the indexed text", () => {
  it("is the text a reader sees: tags gone, every entity the character it stands for", () => {
    expect(htmlText("<p>export <code>KEY</code>=&#x27;a&#39;b&amp;&lt;c&gt; &#36;</p>")).toBe(
      "export KEY='a'b&<c> $",
    );
    // A guide table's path may wrap after each slash (<wbr>): the index reads it whole.
    expect(htmlText("<td><code>/cloud/<wbr>v1/<wbr>regions</code></td>")).toBe("/cloud/v1/regions");
    expect(JSON.stringify(file.index)).not.toContain("cloud/ v1/");
    // No entity survives into the index's stored text (a snippet shows it as it is).
    expect(JSON.stringify(file.index)).not.toMatch(/&(#x?[0-9a-f]+|amp|lt|gt|quot);/i);
  });
});

describe("a result's snippet and highlight", () => {
  const { highlight, pick, snippet } = globalThis.platformSearchResults;
  const text = (parts: SearchTextPart[]) => parts.map((p) => p.text).join("");
  const marks = (parts: SearchTextPart[]) => parts.filter((p) => p.mark).map((p) => p.text);

  it("marks every matched word, a name by its parts too, and nothing else", () => {
    const parts = highlight("Call check_limits first; the limits hold.", ["limits"]);
    expect(marks(parts)).toEqual(["check_limits", "limits"]);
    expect(text(parts)).toBe("Call check_limits first; the limits hold.");
  });

  it("cuts a long text around the first match, at spaces, with an ellipsis where it cut", () => {
    const long = `${"alpha ".repeat(60)}the needle is here ${"omega ".repeat(60)}`.trim();
    const parts = snippet(long, ["needle"], 80);
    const shown = text(parts);
    expect(shown.startsWith("…")).toBe(true);
    expect(shown.endsWith("…")).toBe(true);
    expect(shown.length).toBeLessThanOrEqual(82);
    expect(marks(parts)).toEqual(["needle"]);
    expect(shown).toMatch(/^…alpha .* omega…$/);
    // A text without a match shows its start.
    expect(text(snippet(long, ["absent"], 80)).startsWith("alpha alpha")).toBe(true);
  });

  it("keeps markup in the index as text: parts are strings, the page puts them in as text", () => {
    const hostile = '<img src=x onerror="alert(1)"> <script>alert(2)</script> pagination';
    const parts = snippet(hostile, ["pagination", "script"]);
    expect(text(parts)).toBe(hostile);
    expect(marks(parts)).toEqual(["script", "script", "pagination"]);
  });

  it("leaves room for other kinds when one kind has many results", () => {
    const results = [
      ...Array.from({ length: 20 }, (_, i) => ({ kind: "guide", id: `g${i}` })),
      ...Array.from({ length: 4 }, (_, i) => ({ kind: "operation", id: `o${i}` })),
    ];
    const chosen = pick(results);
    expect(chosen).toHaveLength(12);
    expect(chosen.filter((r) => r.kind === "operation")).toHaveLength(4);
    // Alone, a kind fills the list.
    expect(pick(results.filter((r) => r.kind === "guide"))).toHaveLength(12);
  });
});
