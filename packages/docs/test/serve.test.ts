// `pnpm docs:serve`: the built site on 127.0.0.1, with clear errors for what it cannot do, its text
// files compressed as the request accepts.
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { type IncomingHttpHeaders, request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MIN_COMPRESSED_SIZE, negotiateEncoding } from "../src/compression.js";
import { CONTENT_SECURITY_POLICY } from "../src/layout.js";
import { type DocsServer, serveDocs } from "../src/serve.js";

describe("serveDocs", () => {
  it("serves a folder on the loopback address and answers 404 for what is not there", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-serve-"));
    writeFileSync(join(dir, "index.html"), "<!doctype html><title>x</title>");
    const server = await serveDocs({ port: 0, dir });
    try {
      expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      const page = await fetch(`${server.url}/`);
      expect(page.status).toBe(200);
      expect(page.headers.get("content-type")).toContain("text/html");
      expect(await page.text()).toContain("<title>x</title>");
      // The pages carry the policy too; the header adds what a <meta> cannot say (frame-ancestors).
      expect(page.headers.get("content-security-policy")).toBe(
        `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
      );
      expect((await fetch(`${server.url}/missing.html`)).status).toBe(404);
    } finally {
      await server.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it("says to build first when there is no site", async () => {
    await expect(serveDocs({ port: 0, dir: join(tmpdir(), "no-such-docs") })).rejects.toThrow(
      /run `pnpm run docs` first/,
    );
  });

  it("refuses a port that is not one", async () => {
    const dir = mkdtempSync(join(tmpdir(), "docs-serve-"));
    writeFileSync(join(dir, "index.html"), "x");
    await expect(serveDocs({ port: 70000, dir })).rejects.toThrow(/expected an integer from 0 to 65535/);
    rmSync(dir, { recursive: true, force: true });
  });
});

interface RawAnswer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

/** An answer's bytes as sent: fetch would decode them and hide the encoding. */
function raw(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const req = request(url, { method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        done({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }),
      );
      res.on("error", fail);
    });
    req.on("error", fail);
    req.end();
  });
}

describe("negotiateEncoding", () => {
  it("takes the encoding the request weighs highest, br on a tie, none it refuses", () => {
    expect(negotiateEncoding("gzip, deflate, br, zstd")).toBe("br");
    expect(negotiateEncoding("gzip, deflate")).toBe("gzip");
    expect(negotiateEncoding("br;q=0.5, gzip;q=0.8")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, gzip;q=0")).toBeUndefined();
    expect(negotiateEncoding("*")).toBe("br");
    expect(negotiateEncoding("*;q=0, gzip")).toBe("gzip");
    expect(negotiateEncoding("br;q=0, *")).toBe("gzip");
    expect(negotiateEncoding("gzip;q=1.0, br;q=1")).toBe("br");
    expect(negotiateEncoding("br;Q=0, GZIP")).toBe("gzip");
    expect(negotiateEncoding("identity")).toBeUndefined();
    expect(negotiateEncoding("")).toBeUndefined();
    expect(negotiateEncoding(undefined)).toBeUndefined();
  });
});

describe("serveDocs compresses", () => {
  let base: string;
  let dir: string;
  let server: DocsServer;
  // Text that compresses, larger than the smallest size worth compressing.
  const script = `${"globalThis.value = 'the same words again';\n".repeat(200)}`;
  const page = `<!doctype html><title>x</title>${"<p>a paragraph of the page</p>".repeat(100)}`;

  beforeAll(async () => {
    base = mkdtempSync(join(tmpdir(), "docs-serve-"));
    dir = join(base, "site");
    mkdirSync(join(dir, "assets"), { recursive: true });
    // Beside the site, not in it: a text file worth compressing that no address may reach.
    writeFileSync(join(base, "secret.txt"), script);
    mkdirSync(join(dir, "reference"));
    writeFileSync(join(dir, "index.html"), page);
    writeFileSync(join(dir, "reference/index.html"), page);
    writeFileSync(join(dir, "assets/app.js"), script);
    writeFileSync(join(dir, "assets/small.css"), "a{color:red}");
    writeFileSync(join(dir, "assets/logo.png"), Buffer.alloc(4096, 7));
    server = await serveDocs({ port: 0, dir });
  });
  afterAll(async () => {
    await server.close();
    rmSync(base, { recursive: true, force: true });
  });

  it("sends br or gzip as accepted, its length, its type and the policy; the bytes decode to the file", async () => {
    expect(Buffer.byteLength(script)).toBeGreaterThan(MIN_COMPRESSED_SIZE);
    for (const [accept, encoding, decode] of [
      ["gzip, deflate, br", "br", brotliDecompressSync],
      ["gzip, deflate", "gzip", gunzipSync],
    ] as const) {
      const answer = await raw(`${server.url}/assets/app.js`, { "accept-encoding": accept });
      expect(answer.status).toBe(200);
      expect(answer.headers["content-encoding"]).toBe(encoding);
      expect(answer.headers.vary).toBe("Accept-Encoding");
      expect(Number(answer.headers["content-length"])).toBe(answer.body.length);
      expect(answer.body.length).toBeLessThan(Buffer.byteLength(script) / 4);
      expect(answer.headers["content-type"]).toBe("text/javascript");
      expect(answer.headers["content-security-policy"]).toBe(
        `${CONTENT_SECURITY_POLICY}; frame-ancestors 'none'`,
      );
      expect(decode(answer.body).toString()).toBe(script);
    }
    // A page, by its folder's address too, as sirv finds it.
    for (const path of ["/", "/reference/", "/reference", "/reference/index.html"]) {
      const answer = await raw(`${server.url}${path}`, { "accept-encoding": "br" });
      expect(answer.headers["content-type"], path).toBe("text/html;charset=utf-8");
      expect(brotliDecompressSync(answer.body).toString(), path).toBe(page);
    }
  });

  it("sends the file as it is to a request that accepts no encoding, and what is not worth compressing, each varying by Accept-Encoding where it could", async () => {
    const requests: Record<string, string>[] = [
      {},
      { "accept-encoding": "identity" },
      { "accept-encoding": "br;q=0, gzip;q=0" },
    ];
    for (const headers of requests) {
      const answer = await raw(`${server.url}/assets/app.js`, headers);
      expect(answer.headers["content-encoding"]).toBeUndefined();
      expect(answer.headers.vary).toBe("Accept-Encoding");
      expect(answer.body.toString()).toBe(script);
    }
    const small = await raw(`${server.url}/assets/small.css`, { "accept-encoding": "br" });
    expect(small.headers["content-encoding"]).toBeUndefined();
    expect(small.body.toString()).toBe("a{color:red}");
    // An image is compressed already: no encoding, and no Vary, its answer the same for everyone.
    const image = await raw(`${server.url}/assets/logo.png`, { "accept-encoding": "br" });
    expect(image.headers["content-encoding"]).toBeUndefined();
    expect(image.headers.vary).toBeUndefined();
    expect(image.body).toEqual(Buffer.alloc(4096, 7));
  });

  it("answers HEAD with the GET's headers and no body", async () => {
    const accept = { "accept-encoding": "gzip" };
    const get = await raw(`${server.url}/assets/app.js`, accept);
    const head = await raw(`${server.url}/assets/app.js`, accept, "HEAD");
    expect(head.status).toBe(200);
    expect(head.body.length).toBe(0);
    for (const name of ["content-encoding", "content-length", "content-type", "etag", "vary"])
      expect(head.headers[name], name).toBe(get.headers[name]);
  });

  it("answers a range with the file's own bytes, as before", async () => {
    const answer = await raw(`${server.url}/assets/app.js`, {
      "accept-encoding": "br",
      range: "bytes=10-19",
    });
    expect(answer.status).toBe(206);
    expect(answer.headers["content-encoding"]).toBeUndefined();
    expect(answer.headers["content-range"]).toBe(`bytes 10-19/${Buffer.byteLength(script)}`);
    expect(answer.body.toString()).toBe(script.slice(10, 20));
    expect(answer.headers.vary).toBe("Accept-Encoding");
  });

  it("validates each encoding by its own ETag: 304 for the one the client holds, the bytes for another", async () => {
    const br = await raw(`${server.url}/assets/app.js`, { "accept-encoding": "br" });
    const gzip = await raw(`${server.url}/assets/app.js`, { "accept-encoding": "gzip" });
    const identity = await raw(`${server.url}/assets/app.js`);
    const tags = [br, gzip, identity].map((a) => a.headers.etag);
    expect(new Set(tags).size).toBe(3);
    const again = await raw(`${server.url}/assets/app.js`, {
      "accept-encoding": "br",
      "if-none-match": String(br.headers.etag),
    });
    expect(again.status).toBe(304);
    // A client holding several representations names them all.
    const several = await raw(`${server.url}/assets/app.js`, {
      "accept-encoding": "br",
      "if-none-match": `${gzip.headers.etag}, ${br.headers.etag}`,
    });
    expect(several.status).toBe(304);
    expect(again.body.length).toBe(0);
    expect(again.headers.vary).toBe("Accept-Encoding");
    const other = await raw(`${server.url}/assets/app.js`, {
      "accept-encoding": "gzip",
      "if-none-match": String(br.headers.etag),
    });
    expect(other.status).toBe(200);
    expect(gunzipSync(other.body).toString()).toBe(script);
  });

  it("compresses a file anew once it changes on disk", async () => {
    const first = await raw(`${server.url}/index.html`, { "accept-encoding": "br" });
    expect(brotliDecompressSync(first.body).toString()).toBe(page);
    const changed = `${page}<p>changed</p>`;
    writeFileSync(join(dir, "index.html"), changed);
    // Its size changed; its time too, set apart so a coarse file system clock cannot hide it.
    utimesSync(join(dir, "index.html"), new Date(2000, 0, 1), new Date(2000, 0, 1));
    const second = await raw(`${server.url}/index.html`, { "accept-encoding": "br" });
    expect(brotliDecompressSync(second.body).toString()).toBe(changed);
    writeFileSync(join(dir, "index.html"), page);
  });

  it("serves nothing outside its folder, encoded or not", async () => {
    for (const path of [
      "/..%2fsecret.txt",
      "/assets/..%2f..%2fsecret.txt",
      "/%2e%2e/secret.txt",
      "/../secret.txt",
    ]) {
      const answer = await raw(`${server.url}${path}`, { "accept-encoding": "br" });
      expect(answer.status, path).toBe(404);
      expect(answer.headers["content-encoding"], path).toBeUndefined();
    }
  });
});
