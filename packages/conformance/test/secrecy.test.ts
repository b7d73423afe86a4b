// The keys never reach a report or the screen, whatever a server echoes back and in whatever form,
// and a usage error never prints one either.

import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { stripVTControlCharacters } from "node:util";
import { afterEach, describe, expect, it } from "vitest";
import { echoes, leaks } from "../../client/test/key-forms.js";
import { runConformance } from "../src/active/run.js";
import { parseArgs } from "../src/cli/cli-options.js";
import { createCli } from "../src/cli/program.js";
import { scenarioModuleCache } from "../src/shared/module-cache.js";
import { actingCharacters } from "./acting-characters.js";
import { CLI, type CliRun, runCli, runEnv } from "./run-cli.js";
import { tokenPrefix } from "./token-prefix.js";

const KEY = "2971$e0c1c4b7d7a8f4f3a9d5e6b1c2d3e4f5a6b7c8d9";
const RESELLER = "8812$9f3b27ac51d04e6b8a7c2e1f0d9c8b7a6f5e4d3c";
const KEYS = { "client key": KEY, "reseller key": RESELLER };

/** What a target may send to drive the user's terminal: a screen clear, a window title, bidi. */
const TERMINAL_ESCAPES = "\x1b[2J\x1b]0;pwned\x07\u202e";

/** The evidence excerpt's length, where the HTTP layer cuts a body. */
const CUT = 300;

/** `length` characters of filler with each form placed to start at its index. */
function textWith(length: number, placed: [number, string][]): string {
  let out = "";
  for (const [at, form] of placed.sort((a, b) => a[0] - b[0])) {
    out += "x".repeat(Math.max(0, at - out.length));
    out += form;
  }
  return out + "x".repeat(Math.max(0, length - out.length));
}

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

/**
 * A platform that echoes the Authorization header back in every answer: enough of a platform for the
 * run to start (the account, a default project, an ACTIVE region, each carrying an echo), and an
 * error (401 or 404, JSON or text) for everything else. In request n the echo form n (in turn)
 * straddles character 300, where excerpts are cut, another straddles 200, where reasons cut a
 * body, and every other form follows.
 */
async function startEchoingServer() {
  const seen: string[] = [];
  let n = 0;
  const answer = (req: IncomingMessage, res: ServerResponse) => {
    const header = String(req.headers.authorization ?? "");
    seen.push(header);
    const forms = Object.values(echoes(header || `${tokenPrefix}${KEY}`));
    const i = n++;
    const first = forms[i % forms.length] as string;
    const second = forms[(i + 1) % forms.length] as string;
    // The token (after its prefix) of a plain echo starts 20 characters before the cut. `offset`:
    // the characters of the body before the echo.
    const at300 = first.startsWith(tokenPrefix)
      ? CUT - 20 - tokenPrefix.length
      : CUT - Math.floor(first.length / 2);
    const at200 = 200 - Math.floor(second.length / 2);
    const echo = (offset: number) =>
      `${textWith(CUT + 80, [
        [at200 - offset, second],
        [at300 - offset, first],
      ])} ${forms.join(" ")}`;
    const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname;
    const json = (status: number, body: unknown) => {
      // The JSON text keeps a "\u0024" escape as the server wrote it.
      const text = JSON.stringify(body).replace(/\\\\u0024/g, "\\u0024");
      res.writeHead(status, { "content-type": "application/json", "x-echo": header }).end(text);
    };
    if (path === "/iam/clients/me") return json(200, { id: 1, name: echo('{"id":1,"name":"'.length) });
    if (path === "/cloud/v1/projects")
      return json(200, { count: 1, results: [{ id: 1, is_default: true, name: echo(0) }] });
    if (path === "/cloud/v1/regions")
      return json(200, {
        count: 1,
        results: [
          {
            id: 76,
            state: "ACTIVE",
            // With what would clear the screen, retitle the window and reverse the rest of the line.
            display_name: `Luxembourg ${header}${TERMINAL_ESCAPES}`,
            available_volume_types: ["standard"],
            echo: echo(0),
          },
        ],
      });
    const status = i % 2 === 0 ? 401 : 404;
    if (i % 3 === 0) res.writeHead(status, { "content-type": "text/plain" }).end(`${echo(0)} is not allowed`);
    else json(status, { detail: echo('{"detail":"'.length) });
  };
  const server = createServer((req, res) => {
    // Bounded: a run makes a few hundred requests; anything beyond is refused.
    if (n > 5_000) return req.socket.destroy();
    req.resume();
    req.on("end", () => answer(req, res));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return { url: `http://127.0.0.1:${port}`, seen };
}

describe("a server that echoes the key back", () => {
  // One run against the echoing server; each test reads other places a key could reach. The built
  // CLI in its own process: what reaches the screen is the process's real stdout and stderr,
  // whatever in it prints, and the compiled modules are those its run left on disk.
  let echoed: Promise<{ server: Awaited<ReturnType<typeof startEchoingServer>>; run: CliRun }> | undefined;
  const echoRun = () =>
    (echoed ??= (async () => {
      const server = await startEchoingServer();
      const run = await runCli(["--target", server.url, "--rate-limit", "100"], {
        GCORE_API_KEY: KEY,
        GCORE_RESELLER_API_KEY: RESELLER,
      });
      return { server, run };
    })());

  it("gets no form of either key into report.json, junit.xml, report.md, report.html, stdout or stderr", async () => {
    const { server, run } = await echoRun();
    expect(run.code).toBe(1);
    const outputs = { ...run.files, stdout: run.stdout, stderr: run.stderr };
    expect(Object.keys(outputs).sort()).toEqual([
      "junit.xml",
      "report.html",
      "report.json",
      "report.md",
      "stderr",
      "stdout",
    ]);
    for (const [name, text] of Object.entries(outputs)) expect(leaks(text, KEYS), name).toEqual([]);
    // Not vacuous: the server saw both keys, and echoes were cut into excerpts and redacted.
    expect(server.seen).toContain(`${tokenPrefix}${KEY}`);
    expect(server.seen).toContain(`${tokenPrefix}${RESELLER}`);
    const excerpts = run.report?.scenarios.flatMap((s) => s.evidence.map((e) => e.excerpt)) ?? [];
    expect(excerpts.filter((e) => /… \(cut: \d+ characters in all\)$/.test(e)).length).toBeGreaterThan(10);
    expect(excerpts.filter((e) => e.includes("***")).length).toBeGreaterThan(10);
    // The region's name is printed as text: its escapes shown, not obeyed.
    expect(run.stdout).toContain(`region 76 (Luxembourg ${tokenPrefix}***\\x1b[2J\\x1b]0;pwned\\x07\\u202e)`);
    expect(actingCharacters(run.stdout)).toEqual([]);
    expect(actingCharacters(run.stderr)).toEqual([]);
  });

  it("gets no form of either key into the compiled modules the run keeps for the next", async () => {
    const { run } = await echoRun();
    expect(run.code).toBe(1);
    const cache = scenarioModuleCache(fileURLToPath(new URL("..", import.meta.url)))?.fsModuleCachePath;
    expect(cache, "the package's node_modules can be written here").toBeDefined();
    // Other test files' runs write here at the same time: a file renamed away meanwhile is skipped.
    const texts = readdirSync(cache as string).flatMap((name) => {
      try {
        return [readFileSync(join(cache as string, name), "utf8")];
      } catch {
        return [];
      }
    });
    for (const text of texts) expect(leaks(text, KEYS)).toEqual([]);
    // Not vacuous: the run compiled the scenario files into it (a scenario id is in one of them).
    expect(texts.some((text) => text.includes("discovery.default-project"))).toBe(true);
  });
});

/**
 * A command line as the CLI's process reads it (src/cli/program.ts: commander's parser, the
 * redaction of what it echoes, the usage error's exit code), in this process: what it prints, and
 * the code it exits with (undefined: it did not exit).
 */
async function commandLine(args: string[], env: Record<string, string> = {}) {
  const argv = [process.execPath, CLI, ...args];
  const exited = new Error("the command line exited");
  let out = "";
  let code: number | undefined;
  try {
    await createCli({
      env: runEnv(env),
      argv,
      writeOut: (text) => {
        out += text;
      },
      writeErr: (text) => {
        out += text;
      },
      exit: (exitCode) => {
        code = exitCode;
        throw exited;
      },
    }).parseAsync(argv);
  } catch (error) {
    if (error !== exited) throw error;
  }
  return { code, out };
}

// commander's refusals echo what they refuse; the command line redacts them with the argv and the
// environment it is given (src/cli/program.ts), the same in any process.
describe.concurrent("usage errors (exit 2), as the command line prints commander's refusals", () => {
  it.each([
    ["the key after an unknown flag", ["--api-key", KEY], /unknown option '--api-key'/],
    ["the key in an unknown flag", [`--api-key=${KEY}`], /unknown option '--api-key=\*\*\*'/],
    ["the key as a number", ["--project-id", KEY], /--project-id needs a whole number \(got "\*\*\*"\)/],
    ["the key as an argument", [KEY], /too many arguments/],
  ])("%s prints no form of it", async (_name, args, message) => {
    const run = await commandLine(args, { GCORE_API_KEY: KEY });
    expect(run.code).toBe(2);
    expect(run.out).toMatch(message);
    expect(leaks(run.out, KEYS)).toEqual([]);
  });
});

// The built CLI in its own process: that cli.ts hands the command line the process's own argv and
// stdout and stderr, and exits with its code, only the process shows. The token is in no
// variable: only the argv it was given tells the command line to mask it.
describe("usage errors (exit 2), as the process prints commander's refusals", () => {
  it("masks a token typed on the command line that is in no variable, by its shape", async () => {
    const run = await runCli([`--api-key=${KEY}`]);
    expect(run.code).toBe(2);
    expect(run.stdout + run.stderr).toMatch(/\*\*\*/);
    expect(leaks(run.stdout + run.stderr, KEYS)).toEqual([]);
  });
});

/**
 * A run refused after its flags are parsed, as the CLI makes it (parseArgs, then runConformance):
 * what it prints is redacted by the run's own output (src/report/run-output.ts) from `env` and the
 * flags, the same in any process. `files`: what it wrote to its report folder.
 */
async function refusedRun(args: string[], env: Record<string, string> = {}) {
  const dir = mkdtempSync(join(tmpdir(), "secrecy-"));
  const lines: string[] = [];
  try {
    const { exitCode } = await runConformance(parseArgs(["--report", dir, ...args]), {
      env,
      write: (line) => lines.push(line),
      notice: (line) => lines.push(line),
    });
    return { code: exitCode, out: stripVTControlCharacters(lines.join("\n")), files: readdirSync(dir) };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

describe.concurrent("usage errors (exit 2) after the flags are parsed", () => {
  it.each([
    ["the key as the target", ["--target", KEY], /--target "\*\*\*" is not allowed/],
    [
      "the key as the name of its variable",
      ["--target", "http://127.0.0.1:9", "--api-key-env", KEY],
      /--api-key-env must name an environment variable \(got "\*\*\*"\)/,
    ],
  ])("%s prints no form of it", async (_name, args, message) => {
    const run = await refusedRun(args, { GCORE_API_KEY: KEY });
    expect(run.code).toBe(2);
    expect(run.out).toMatch(message);
    expect(leaks(run.out, KEYS)).toEqual([]);
  });

  it("refuses a target URL with a password, and prints no form of the password", async () => {
    const password = "s3cretpw-Zq81x";
    const run = await refusedRun(["--target", `http://user:${password}@127.0.0.1:9`], { GCORE_API_KEY: KEY });
    expect(run.code).toBe(2);
    expect(run.out).toMatch(
      /--target http:\/\/user:\*\*\*@127\.0\.0\.1:9\/?: .*without a user name or password/,
    );
    expect(leaks(run.out, { password })).toEqual([]);
    // Refused before anything is sent or written.
    expect(run.files).toEqual([]);
  });

  it("masks a token given as the target that is in no variable, by its shape", async () => {
    const run = await refusedRun(["--target", encodeURIComponent(KEY)]);
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/\*\*\*/);
    expect(leaks(run.out, KEYS)).toEqual([]);
  });

  it("redacts a key of any shape that is in the key variables", async () => {
    const plain = "plainTokenWithoutDollar0c1c4b7d";
    const run = await refusedRun(["--target", plain], { GCORE_API_KEY: plain });
    expect(run.code).toBe(2);
    expect(run.out).toMatch(/--target "\*\*\*" is not allowed/);
    expect(run.out).not.toContain(plain);
  });
});
