// The site's search index as the build writes it (assets/search-index.js): every guide section and
// every operation in it, loaded the way the browser loads it (MiniSearch.loadJS with the shared
// tokenizer), finding what the browser tests look for.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { runInNewContext } from "node:vm";
import { loadBundle } from "@platform-api/spec";
import MiniSearch from "minisearch";
import { beforeAll, describe, expect, it } from "vitest";
import "../assets/search-terms.js";
import { loadGuides, outline } from "../src/guides.js";
import { listOperations } from "../src/operations.js";
import { operationAnchor } from "../src/reference.js";
import type { SearchIndexFile } from "../src/search-index.js";
import { builtSite } from "./built-site.js";

const operations = listOperations(loadBundle());
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
    const options = {
      prefix: true,
      combineWith: "AND" as const,
      boost: { title: 4, keywords: 3, context: 2 },
    };
    for (const query of ["check_limits", op?.operationId ?? "", "check quota virtual gpu"])
      expect(search.search(query, options)[0]?.id, query).toBe(id);
  });
});
