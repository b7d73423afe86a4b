// What `verify --har` refuses, and how: a HAR of the wrong shape, one too large to read (or a file
// that never ends), is a usage error (exit 2) in one line naming the entry, the field and what is
// allowed, never a stack trace; and such a line never quotes what the HAR holds (a token, or its
// secret part alone, may be anywhere in it).

import { constants } from "node:buffer";
import { mkdtempSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { leaks } from "../../client/test/key-forms.js";
import { specModel } from "../src/facts/spec.js";
import { MAX_HAR_BYTES, readHar } from "../src/http/har.js";
import { UsageError } from "../src/shared/usage-error.js";
import { runVerify } from "../src/traffic/commands.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const ACCOUNT = operationById(model, "getCurrentClient").path;
const REGIONS = operationById(model, "listRegions").path;
const KEY = "3051$sim-client-5e1f0c7a9b2d4e6f8a0b";
const SECRET = KEY.slice(KEY.indexOf("$") + 1);

const dir = mkdtempSync(join(tmpdir(), "verify-input-"));
let files = 0;
function harFile(har: unknown): string {
  const file = join(dir, `${files++}.har`);
  writeFileSync(file, typeof har === "string" ? har : JSON.stringify(har));
  return file;
}

const entry = (patch: { request?: object; response?: object; content?: unknown } = {}) => ({
  startedDateTime: "2026-11-24T10:00:00.000Z",
  time: 3,
  request: {
    method: "GET",
    url: `https://api.example.com${ACCOUNT}`,
    headers: [{ name: "Authorization", value: `${tokenPrefix}${KEY}` }],
    ...patch.request,
  },
  response: {
    status: 200,
    headers: [{ name: "content-type", value: "application/json" }],
    content: "content" in patch ? patch.content : { mimeType: "application/json", text: "{}" },
    ...patch.response,
  },
});

/** The UsageError readHar throws for `har`, or a failure saying it threw something else or nothing. */
async function refusal(har: unknown, options?: { maxBytes?: number }): Promise<string> {
  const file = typeof har === "string" && har.startsWith("/") ? har : harFile(har);
  try {
    await readHar(file, undefined, options);
  } catch (error) {
    if (error instanceof UsageError) {
      expect(error.message).not.toContain("\n");
      return error.message;
    }
    throw new Error(`not a UsageError: ${(error as Error).stack}`);
  }
  throw new Error("readHar accepted it");
}

describe("a HAR of the wrong shape is one line naming the entry, the field and what is allowed", () => {
  it.each([
    ["an entry that is null", { log: { entries: [null] } }, /log\.entries\[0\] is null; allowed: an object/],
    [
      "content.text null",
      { log: { entries: [entry(), entry({ content: { text: null } })] } },
      /log\.entries\[1\]\.response\.content\.text is null; allowed: a string/,
    ],
    [
      "content.text a number",
      { log: { entries: [entry({ content: { text: 42 } })] } },
      /log\.entries\[0\]\.response\.content\.text is a number; allowed: a string/,
    ],
    [
      "content.text an object",
      { log: { entries: [entry({ content: { text: { a: 1 } } })] } },
      /log\.entries\[0\]\.response\.content\.text is an object; allowed: a string/,
    ],
    [
      "content itself a string",
      { log: { entries: [entry({ content: "{}" })] } },
      /log\.entries\[0\]\.response\.content is a string; allowed: an object/,
    ],
    [
      "no request.url",
      { log: { entries: [entry({ request: { url: undefined } })] } },
      /log\.entries\[0\]\.request has no url; allowed: /,
    ],
    [
      "a status that is text",
      { log: { entries: [entry({ response: { status: "200" } })] } },
      /log\.entries\[0\]\.response\.status is a string; allowed: a number/,
    ],
    [
      "a header that is a number",
      { log: { entries: [entry({ request: { headers: [7] } })] } },
      /log\.entries\[0\]\.request\.headers\[0\] is a number; allowed: an object/,
    ],
  ])("%s", async (_name, har, message) => {
    expect(await refusal(har)).toMatch(message);
  });

  it("is exit 2 from verify, one line, no stack", async () => {
    const lines: string[] = [];
    const result = await runVerify(
      { har: harFile({ log: { entries: [null] } }), report: join(dir, "r-null"), strict: false },
      { write: (line) => lines.push(line), env: {} },
    );
    expect(result.exitCode).toBe(2);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/conformance verify: .*log\.entries\[0\] is null/);
    expect(lines[0]).not.toMatch(/ at /);
  });
});

describe("what verify reads is bounded", () => {
  it("a file over the limit is refused at once, saying the limit", async () => {
    // Sparse: MAX_HAR_BYTES + 1 bytes that take no room on the disk.
    const file = join(dir, "huge.har");
    writeFileSync(file, "");
    truncateSync(file, MAX_HAR_BYTES + 1);
    const message = await refusal(file);
    expect(message).toContain(`at most ${MAX_HAR_BYTES.toLocaleString("en-US")} bytes`);
  });

  it("a file that never ends (/dev/zero) stops at the limit", async () => {
    const message = await refusal("/dev/zero", { maxBytes: 1 << 20 });
    expect(message).toContain(`at most ${(1 << 20).toLocaleString("en-US")} bytes`);
  });

  it("the limit is one a string can hold (V8's longest string)", () => {
    expect(MAX_HAR_BYTES).toBeLessThanOrEqual(constants.MAX_STRING_LENGTH);
  });
});

describe("an error about a HAR never quotes what it holds", () => {
  it("a relative URL carrying the token's secret part alone", async () => {
    const har = {
      log: {
        entries: [entry(), entry({ request: { url: `${REGIONS}?k=${SECRET}` } })],
      },
    };
    const message = await refusal(har);
    expect(message).toMatch(/log\.entries\[1\]\.request\.url is not an absolute URL/);
    expect(leaks(message, { key: KEY })).toEqual([]);
  });

  it("text that is not JSON, a token in it", async () => {
    // V8's own message quotes the text around where parsing stopped: here, the secret part.
    const message = await refusal(`{"log": ${SECRET}}`);
    expect(message).toMatch(/not JSON/);
    expect(leaks(message, { key: KEY })).toEqual([]);
    expect(readFileSync(join(dir, `${files - 1}.har`), "utf8")).toContain(SECRET);
  });
});
