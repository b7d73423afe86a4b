// A base URL with a user name or password (`--target`, observe's `--upstream`, verify's
// `--base-url`) is refused before anything is sent or written (exit 2), and the password is shown
// as `***` in the message: the suite and the proxy send the platform's token in the Authorization
// header, so a URL's credentials would go nowhere (node:http drops them, fetch refuses the URL).

import { mkdtempSync, readdirSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { leaks } from "../../client/test/key-forms.js";
import { baseUrlOf } from "../src/discovery/check-options.js";
import { UsageError } from "../src/shared/usage-error.js";
import { runObserve, runVerify } from "../src/traffic/commands.js";

const PASSWORD = "s3cretpw-Zq81x";
const SECRETS = { password: PASSWORD };

let dir: string | undefined;
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});
const tempDir = () => {
  dir = mkdtempSync(join(tmpdir(), "conformance-credentials-"));
  return dir;
};

describe("baseUrlOf", () => {
  it.each([
    [`http://user:${PASSWORD}@127.0.0.1:4601`, "http://user:***@127.0.0.1:4601/"],
    [
      `https://user:${encodeURIComponent(`${PASSWORD}@$`)}@api.example.com/base`,
      "https://user:***@api.example.com/base",
    ],
    ["http://user@127.0.0.1:4601", "http://user@127.0.0.1:4601/"],
  ])("refuses %s, showing it as %s", (value, shown) => {
    let error: unknown;
    try {
      baseUrlOf("--target", value);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UsageError);
    const message = (error as Error).message;
    expect(message).toContain(`--target ${shown}: `);
    expect(message).toMatch(/without a user name or password/);
    expect(leaks(message, SECRETS)).toEqual([]);
  });

  it("shows no password in the message for a URL it cannot use for another reason", () => {
    for (const value of [
      `ftp://user:${PASSWORD}@host/`,
      `http://user:${PASSWORD}@`,
      `http://user:${PASSWORD}@h/?q=1`,
    ]) {
      expect(() => baseUrlOf("--upstream", value)).toThrow(UsageError);
      try {
        baseUrlOf("--upstream", value);
      } catch (error) {
        expect(leaks((error as Error).message, SECRETS), value).toEqual([]);
        expect((error as Error).message).toContain("user:***@");
      }
    }
  });
});

describe("observe and verify", () => {
  it("observe --upstream with a password: exit 2 before it listens, no password printed, no report", async () => {
    const report = tempDir();
    const lines: string[] = [];
    let listened = false;
    const result = await runObserve(
      {
        upstream: `http://user:${PASSWORD}@127.0.0.1:9`,
        listen: "127.0.0.1:0",
        allowRemoteListen: false,
        report,
        strict: false,
      },
      {
        write: (line) => lines.push(line),
        env: {},
        stop: Promise.resolve(),
        listening: () => (listened = true),
      },
    );
    expect(result.exitCode).toBe(2);
    expect(listened).toBe(false);
    expect(lines.join("\n")).toMatch(/--upstream http:\/\/user:\*\*\*@127\.0\.0\.1:9\/: /);
    expect(leaks(lines.join("\n"), SECRETS)).toEqual([]);
    expect(readdirSync(report)).toEqual([]);
  });

  it("verify --base-url with a password: exit 2, no password printed, no report", async () => {
    const root = tempDir();
    const har = join(root, "traffic.har");
    writeFileSync(
      har,
      JSON.stringify({ log: { version: "1.2", creator: { name: "t", version: "1" }, entries: [] } }),
    );
    const report = join(root, "report");
    const lines: string[] = [];
    const result = await runVerify(
      { har, baseUrl: `http://user:${PASSWORD}@127.0.0.1:9`, report, strict: false },
      { write: (line) => lines.push(line), env: {} },
    );
    expect(result.exitCode).toBe(2);
    expect(lines.join("\n")).toMatch(/--base-url http:\/\/user:\*\*\*@127\.0\.0\.1:9\/: /);
    expect(leaks(lines.join("\n"), SECRETS)).toEqual([]);
    expect(readdirSync(root)).toEqual(["traffic.har"]);
  });
});
