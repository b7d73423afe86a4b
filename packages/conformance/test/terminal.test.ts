// What a target or a HAR sends never drives the user's terminal: control characters (ESC[2J clears
// the screen, ESC]0;…BEL retitles the window, CR overwrites a line, U+202E reverses what follows)
// are printed as visible escapes, while the suite's own colours still work.

import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { showControls } from "../src/shared/controls.js";
import { createColors, forTerminal } from "../src/shared/terminal.js";
import { runVerify } from "../src/traffic/commands.js";
import { actingCharacters } from "./acting-characters.js";

/** An SGR sequence, what picocolors writes (the HAR's ESC[2J and OSC are no such thing). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: the escape is what is matched
const SUITE_COLOUR = /\x1b\[\d+(?:;\d+)*m/g;

/** What a hostile answer may carry: a screen clear, a window title, a carriage return, bidi, C1. */
const HOSTILE = "a\x1b[2J\x1b]0;pwned\x07b\rc\u202ed\u2066e\x9b31mf\x7f\x00";
const SHOWN = "a\\x1b[2J\\x1b]0;pwned\\x07b\\x0dc\\u202ed\\u2066e\\x9b31mf\\x7f\\x00";

describe("showControls", () => {
  it("shows every control, bidi and invisible format character as a visible escape", () => {
    expect(showControls(HOSTILE)).toBe(SHOWN);
    expect(showControls("zero\u200bwidth\ufeff \u{e0001}")).toBe("zero\\u200bwidth\\ufeff \\u{e0001}");
    expect(showControls("tab\tline\nend", "\t\n")).toBe("tab\tline\nend");
    expect(showControls("tab\tline\nend")).toBe("tab\\x09line\\x0aend");
  });

  it("leaves printable text alone, other scripts and emoji included", () => {
    const text = "Luxembourg — Люксембург 東京 ✅ ⚠️ café \\x1b";
    expect(showControls(text)).toBe(text);
  });
});

describe("forTerminal", () => {
  it("prints a line's control characters as visible escapes, keeping line feeds and tabs", () => {
    const line = forTerminal(`region 76 (${HOSTILE})\n\tnext`);
    expect(actingCharacters(line)).toEqual([]);
    expect(line).toBe(`region 76 (${SHOWN})\n\tnext`);
  });

  it("keeps the suite's own colours, around and inside text from outside, nested too", () => {
    const c = createColors(true);
    expect(forTerminal(c.red(`FAIL ${HOSTILE}`))).toBe(`\x1b[31mFAIL ${SHOWN}\x1b[39m`);
    expect(forTerminal(`${c.green("✓")} ${HOSTILE} ${c.dim("(must)")}`)).toBe(
      `\x1b[32m✓\x1b[39m ${SHOWN} \x1b[2m(must)\x1b[22m`,
    );
    expect(forTerminal(c.bold(`x ${c.dim("y")} z`))).toBe("\x1b[1mx \x1b[2my\x1b[22m\x1b[1m z\x1b[22m");
    expect(forTerminal(c.bold(c.green("CONFORMANT")))).toBe("\x1b[1m\x1b[32mCONFORMANT\x1b[39m\x1b[22m");
  });

  it("prints no colour code when colours are off, and none that text from outside wrote", () => {
    const c = createColors(false);
    expect(forTerminal(c.red(`FAIL ${HOSTILE}`))).toBe(`FAIL ${SHOWN}`);
    // A colour code written by the target itself is shown, not obeyed.
    expect(forTerminal(createColors(true).dim("\x1b[32mgreen"))).toBe("\x1b[2m\\x1b[32mgreen\x1b[22m");
  });
});

describe("verify prints what a HAR holds as text", () => {
  let dir: string | undefined;
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });

  it("a method holding ESC[2J and ESC]0;…BEL reaches the screen as visible escapes", async () => {
    dir = mkdtempSync(join(tmpdir(), "conformance-terminal-"));
    const har = join(dir, "traffic.har");
    const entry = (method: string, path: string) => ({
      startedDateTime: new Date(0).toISOString(),
      time: 1,
      request: { method, url: `http://127.0.0.1:9${path}`, headers: [] },
      response: { status: 200, headers: [], content: { mimeType: "application/json", text: "{}" } },
    });
    writeFileSync(
      har,
      JSON.stringify({
        log: {
          version: "1.2",
          creator: { name: "hostile", version: "1" },
          entries: [
            entry("GET\x1b[2J\x1b]0;pwned\x07\u202e", "/not-in-the-spec"),
            entry("GET", "/iam/clients/me"),
          ],
        },
      }),
    );
    const lines: string[] = [];
    await runVerify(
      { har, report: join(dir, "report"), strict: false },
      { write: (l) => lines.push(l), env: {} },
    );
    // The suite's own colours are the one escape allowed: they are on wherever the environment
    // asks for them (FORCE_COLOR, as CI's runs on Node 22 and 24 had), and are not the HAR's text.
    const printed = lines.join("\n").replace(SUITE_COLOUR, "");
    expect(actingCharacters(printed)).toEqual([]);
    // Not vacuous: the method was printed (upper-cased), as text.
    expect(printed).toContain("GET\\x1b[2J\\x1b]0;PWNED\\x07\\u202e");
  });
});
