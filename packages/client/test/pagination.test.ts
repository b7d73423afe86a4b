import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { MODEL } from "@platform-api/spec/generated/model";
import { operationById, requireParameter } from "@platform-api/spec/model";
import { build } from "esbuild";
import { describe, expect, it } from "vitest";
import { createClient, PaginationError, paginate } from "../src/index.js";
import { KEY, offsetList, type Script, type ScriptedServer, startScriptedServer } from "./scripted-server.js";

async function clientFor(script: Script) {
  const server = await startScriptedServer(script);
  return {
    client: createClient({ apiKey: KEY, baseUrl: server.url, rateLimit: false, maxRetries: 0 }),
    server,
  };
}

const offsets = (s: ScriptedServer) =>
  s.requests.map((r) => [Number(r.query.get("offset")), Number(r.query.get("limit"))]);

/** The largest page the spec allows for regions: what a walk without a limit asks for. */
const MAX = requireParameter(operationById(MODEL, "listRegions"), "limit", "query").maximum ?? Number.NaN;

describe("every offset list states a page size", () => {
  // What pageSize takes for granted of the compiled-in model: a walk without a caller's limit
  // pages by the limit parameter's maximum, else its default.
  const lists = MODEL.operations.flatMap((o) =>
    "pagination" in o && o.pagination.style === "offset" ? [o] : [],
  );
  it.each(lists.map((o) => [o.operationId, o] as const))("%s", (_id, operation) => {
    const limit = requireParameter(operation, operation.pagination.limitParam, "query");
    expect(typeof (limit.maximum ?? limit.default)).toBe("number");
  });
});

describe("offset pagination", () => {
  it.each([
    [0, 1],
    [1, 1],
    [MAX, 1],
    [MAX + 1, 2],
    [2 * MAX + 345, 3],
  ])(
    `walks %i items with the spec's maximum limit (${MAX}) in exactly %i request(s), each item once`,
    async (count, requests) => {
      const { client, server } = await clientFor(offsetList(count));
      const ids: (number | undefined)[] = [];
      for await (const region of paginate(client, "/cloud/v1/regions")) ids.push(region.id);
      expect(ids).toEqual(Array.from({ length: count }, (_, i) => i + 1));
      expect(server.requests).toHaveLength(requests);
      expect(offsets(server)).toEqual(Array.from({ length: requests }, (_, i) => [i * MAX, MAX]));
    },
  );

  it("uses the caller's limit and starting offset, and keeps the path parameters", async () => {
    const { client, server } = await clientFor(offsetList(25));
    const pages = [];
    for await (const page of paginate(client, "/cloud/v1/instances/{project_id}/{region_id}", {
      params: { path: { project_id: 1, region_id: 76 }, query: { limit: 10, offset: 5 } },
      concurrency: 1,
    }).pages()) {
      pages.push(page.results.length);
    }
    expect(pages).toEqual([10, 10]);
    expect(server.requests.map((r) => r.path)).toEqual([
      "/cloud/v1/instances/1/76",
      "/cloud/v1/instances/1/76",
    ]);
    expect(offsets(server)).toEqual([
      [5, 10],
      [15, 10],
    ]);
  });

  it("hands each page with its own answer (status, headers) as page.response, its JSON the server's", async () => {
    const list = offsetList(25);
    const { client } = await clientFor((request) => ({
      ...(list(request) as object),
      headers: { "x-page-offset": String(request.query.get("offset")) },
    }));
    const walk = paginate(client, "/cloud/v1/regions", { params: { query: { limit: 10 } }, concurrency: 2 });
    const seen = [];
    for await (const page of walk.pages())
      seen.push([page.response.status, page.response.headers.get("x-page-offset"), Object.keys(page)]);
    expect(seen).toEqual([
      [200, "0", ["count", "results"]],
      [200, "10", ["count", "results"]],
      [200, "20", ["count", "results"]],
    ]);
    // The items of the same walk are the bodies' items, nothing attached to them.
    const ids = [];
    for await (const region of walk) ids.push(region.id);
    expect(ids).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
  });

  it("fetches later pages concurrently once count is known, and hands them out in order", async () => {
    // Counted where the client hands requests to fetch: the pages of one batch all leave before any
    // answer can come back, so the count does not depend on how fast the server answers.
    let inFlight = 0;
    let maxInFlight = 0;
    const counting: typeof fetch = async (input, init) => {
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        return await fetch(input, init);
      } finally {
        inFlight--;
      }
    };
    const server = await startScriptedServer(offsetList(50));
    const client = createClient({
      apiKey: KEY,
      baseUrl: server.url,
      rateLimit: false,
      maxRetries: 0,
      fetch: counting,
    });
    const ids = (
      await paginate(client, "/cloud/v1/regions", {
        params: { query: { limit: 5 } },
        concurrency: 3,
      }).toArray()
    ).map((r) => r.id);
    expect(ids).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
    expect(server.requests).toHaveLength(10);
    expect(maxInFlight).toBe(3);
  });

  it("keeps filters on every page of quota limit requests", async () => {
    const list = offsetList(3, (i) => ({ id: i, client_id: 7, status: "done" }));
    const { client, server } = await clientFor(list);
    await paginate(client, "/cloud/reseller/v1/limits_request", {
      params: { query: { limit: 2, client_id: 7, status: ["done", "rejected"] } },
    }).toArray();
    expect(server.requests.map((r) => [r.query.get("client_id"), r.query.getAll("status")])).toEqual([
      ["7", ["done", "rejected"]],
      ["7", ["done", "rejected"]],
    ]);
  });

  it("refuses a count that changes under the walk", async () => {
    const { client } = await clientFor((request, i) => {
      const page = offsetList(30)(request) as { body: { count: number } };
      if (i === 2) page.body.count = 31;
      return page;
    });
    await expect(
      paginate(client, "/cloud/v1/regions", { params: { query: { limit: 10 } }, concurrency: 1 }).toArray(),
    ).rejects.toThrow(
      new PaginationError(
        "/cloud/v1/regions: count changed from 30 to 31 at offset 20 during the walk",
        "/cloud/v1/regions",
      ),
    );
  });

  it("refuses an item that repeats (an off-by-one offset on the server)", async () => {
    const items = Array.from({ length: 20 }, (_, i) => ({ id: i + 1 }));
    const { client } = await clientFor((request) => {
      const offset = Number(request.query.get("offset"));
      const start = offset === 0 ? 0 : offset - 1;
      return { body: { count: 20, results: items.slice(start, start + 10) } };
    });
    await expect(
      paginate(client, "/cloud/v1/regions", { params: { query: { limit: 10 } } }).toArray(),
    ).rejects.toThrow(/item 10 appears twice \(again at offset 10\)/);
  });

  it("refuses a page longer than limit", async () => {
    const { client } = await clientFor(() => ({
      body: { count: 5, results: [{ id: 1 }, { id: 2 }, { id: 3 }] },
    }));
    await expect(
      paginate(client, "/cloud/v1/regions", { params: { query: { limit: 2 } } }).toArray(),
    ).rejects.toThrow("/cloud/v1/regions: the page at offset 0 has 3 items, more than limit 2");
  });

  it("refuses a walk that ends with fewer items than count says", async () => {
    const { client } = await clientFor((request) => {
      const offset = Number(request.query.get("offset"));
      return { body: { count: 4, results: offset === 0 ? [{ id: 1 }] : [{ id: 3 }, { id: 4 }] } };
    });
    await expect(
      paginate(client, "/cloud/v1/regions", { params: { query: { limit: 2 } } }).toArray(),
    ).rejects.toThrow("/cloud/v1/regions: the page at offset 0 has 1 items, but count 4 says 2");
  });

  it("walks a list claiming 10^12 items in a process that survives it: one request, then PaginationError", async () => {
    // In a child process of its own, with a small heap: a walk that allocates by the server's
    // word aborts V8 ("invalid size"), which no try can catch and which would end vitest's worker.
    const server = await startScriptedServer(() => ({ body: { count: 1_000_000_000_000, results: [] } }));
    const outcome = await walkInChild(server.url, "/cloud/v1/regions");
    expect(outcome).toEqual({
      name: "PaginationError",
      message: `/cloud/v1/regions: the page at offset 0 has 0 items, but count 1000000000000 says ${MAX}`,
    });
    expect(server.requests).toHaveLength(1);
  }, 120_000);

  it("ends at once when the first page is empty while count says more", async () => {
    const { client, server } = await clientFor(() => ({ body: { count: 1_000_000, results: [] } }));
    await expect(paginate(client, "/cloud/v1/regions").toArray()).rejects.toThrow(
      new PaginationError(
        `/cloud/v1/regions: the page at offset 0 has 0 items, but count 1000000 says ${MAX}`,
        "/cloud/v1/regions",
      ),
    );
    expect(server.requests).toHaveLength(1);
  });

  it("ends at the first empty later page, with no more requests than concurrency allows", async () => {
    const concurrency = 3;
    // Counted where the client hands requests to fetch (the server may not have seen the last
    // ones yet when the walk ends).
    let sent = 0;
    const counting: typeof fetch = (input, init) => {
      sent++;
      return fetch(input, init);
    };
    const server = await startScriptedServer((request) => {
      const offset = Number(request.query.get("offset"));
      return { body: { count: 1_000_000, results: offset === 0 ? [{ id: 1 }, { id: 2 }] : [] } };
    });
    const client = createClient({
      apiKey: KEY,
      baseUrl: server.url,
      rateLimit: false,
      maxRetries: 0,
      fetch: counting,
    });
    await expect(
      paginate(client, "/cloud/v1/regions", { params: { query: { limit: 2 } }, concurrency }).toArray(),
    ).rejects.toThrow("/cloud/v1/regions: the page at offset 2 has 0 items, but count 1000000 says 2");
    expect(sent).toBe(1 + concurrency);
  });

  it.each([-1, 1.5, 2 ** 53])("refuses a count of %d", async (count) => {
    const { client } = await clientFor(() => ({ body: { count, results: [] } }));
    await expect(paginate(client, "/cloud/v1/regions").toArray()).rejects.toThrow(
      `/cloud/v1/regions: count ${count} is not a whole number of items (a non-negative safe integer)`,
    );
  });

  it("refuses a last page holding more than count says", async () => {
    const { client } = await clientFor(() => ({
      body: { count: 3, results: [{ id: 1 }, { id: 2 }, { id: 3 }, { id: 4 }, { id: 5 }] },
    }));
    await expect(
      paginate(client, "/cloud/v1/regions", { params: { query: { limit: 10 } } }).toArray(),
    ).rejects.toThrow("/cloud/v1/regions: the page at offset 0 has 5 items, but count 3 says 3");
  });

  it("refuses a path that is not a paginated list", () => {
    const client = createClient({ apiKey: KEY, baseUrl: "http://127.0.0.1:9" });
    // @ts-expect-error the projects list takes no limit/offset in the description
    expect(() => paginate(client, "/cloud/v1/projects")).toThrow(
      /is not a paginated list; paginated lists: /,
    );
  });
});

describe("page pagination (AI tasks)", () => {
  const tasks = Array.from({ length: 23 }, (_, i) => ({
    task_id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    task_name: "transcription",
    task_data: {},
    progress: 100,
    status: "SUCCESS",
  }));
  const pageScript: Script = (request) => {
    const page = Number(request.query.get("page") ?? 1);
    const limit = Number(request.query.get("limit") ?? 10);
    const keep = request.query.get("task_name");
    const link = (p: number) => `task_name=${keep}&page=${p}&limit=${limit}`;
    return {
      body: {
        count: tasks.length,
        next: page * limit < tasks.length ? link(page + 1) : null,
        previous: page > 1 ? link(page - 1) : null,
        results: tasks.slice((page - 1) * limit, page * limit),
      },
    };
  };

  it("follows next until it is null, keeping the filters", async () => {
    const { client, server } = await clientFor(pageScript);
    const items = await paginate(client, "/streaming/ai/tasks", {
      params: { query: { task_name: "transcription" } },
    }).toArray();
    expect(items.map((t) => t.task_id)).toEqual(tasks.map((t) => t.task_id));
    expect(server.requests.map((r) => [r.query.get("page"), r.query.get("task_name")])).toEqual([
      [null, "transcription"],
      ["2", "transcription"],
      ["3", "transcription"],
    ]);
  });

  it("hands each page of a page list with the answer it came in", async () => {
    const { client } = await clientFor((request, i) => ({
      ...(pageScript(request, i) as object),
      headers: { "x-page": request.query.get("page") ?? "1" },
    }));
    const pages = [];
    for await (const page of paginate(client, "/streaming/ai/tasks", {
      params: { query: { task_name: "transcription" } },
    }).pages())
      pages.push(page.response.headers.get("x-page"));
    expect(pages).toEqual(["1", "2", "3"]);
  });

  it("walks a list whose pages leave out count (the spec gives it a default, so it may be absent)", async () => {
    const withoutCount: Script = (request, i) => {
      // pageScript answers synchronously with a body.
      const { body } = pageScript(request, i) as { body: Record<string, unknown> };
      const { count: _count, ...rest } = body;
      return { body: rest };
    };
    const { client } = await clientFor(withoutCount);
    const items = await paginate(client, "/streaming/ai/tasks", {
      params: { query: { task_name: "transcription" } },
    }).toArray();
    expect(items.map((t) => t.task_id)).toEqual(tasks.map((t) => t.task_id));
  });

  it("ends at once on an empty page whose next link is still set", async () => {
    const { client, server } = await clientFor(() => ({
      body: { count: 1_000_000_000_000, next: "page=2", previous: null, results: [] },
    }));
    await expect(paginate(client, "/streaming/ai/tasks").toArray()).rejects.toThrow(
      "/streaming/ai/tasks: page 1 has no items but its next link is set",
    );
    expect(server.requests).toHaveLength(1);
  });

  it("stops a next link that never ends", async () => {
    const { client, server } = await clientFor((_r, i) => ({
      body: {
        count: 2,
        next: `page=${i + 2}`,
        previous: null,
        results: [{ ...tasks[0], task_id: `id-${i}` }],
      },
    }));
    await expect(paginate(client, "/streaming/ai/tasks").toArray()).rejects.toThrow(
      /next is still set after 4 pages of 2 items/,
    );
    expect(server.requests).toHaveLength(4);
  });
});

/**
 * Walks `path` of the server at `baseUrl` in a child process (the client bundled from src by
 * esbuild, 64 MB of heap), and returns the error it ended with; fails if the process died.
 */
async function walkInChild(baseUrl: string, path: string) {
  const dir = await mkdtemp(join(tmpdir(), "walk-"));
  try {
    const bundle = await build({
      stdin: {
        contents: `import { createClient, paginate } from "./src/index.ts";
const client = createClient({ apiKey: ${JSON.stringify(KEY)}, baseUrl: ${JSON.stringify(baseUrl)}, rateLimit: false, maxRetries: 0 });
try {
  await paginate(client, ${JSON.stringify(path)}).toArray();
  console.log(JSON.stringify({ name: "none" }));
} catch (e) {
  console.log(JSON.stringify({ name: e.name, message: e.message }));
}`,
        resolveDir: new URL("..", import.meta.url).pathname,
        loader: "ts",
      },
      bundle: true,
      platform: "node",
      format: "esm",
      write: false,
      logLevel: "silent",
    });
    const file = join(dir, "walk.mjs");
    await writeFile(file, bundle.outputFiles[0]?.contents ?? "");
    const { stdout } = await promisify(execFile)(process.execPath, ["--max-old-space-size=64", file], {
      timeout: 60_000,
    });
    return JSON.parse(stdout);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
