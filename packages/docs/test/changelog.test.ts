// The changelog page's renderer, with fixtures: changesets grouped by package and by bump, released
// versions read from a CHANGELOG.md as `changeset version` writes it, the files' content escaped,
// links only to safe schemes and images only from the site. In-process: nothing here needs a browser.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  changelogMain,
  packageChanges,
  parseChangelog,
  parseChangeset,
  readChangesets,
} from "../src/changelog.js";

const dir = mkdtempSync(join(tmpdir(), "docs-changesets-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const write = (file: string, text: string) => writeFileSync(join(dir, file), text);
write("client-retries.md", '---\n"@acme/client": minor\n---\n\nThe client retries `429` answers.\n');
write(
  "both-fix.md",
  "---\n'@acme/client': patch\n\"@acme/server\": major\n---\n\nOne change to two packages.\n\n- Client: a fix.\n- Server: a new start.\n",
);
write(
  "hostile.md",
  '---\n"@acme/server": patch\n---\n\n<script>alert(1)</script> and <img src=x onerror="alert(2)"> stay text.\n',
);
write("README.md", "# Changesets\n\nNot a changeset.\n");

const CHANGELOG = `# @acme/client

## 1.2.0

### Minor Changes

- 1a2b3c4: Lists are walked with \`paginate()\`.

### Patch Changes

- 9f8e7d6: A typo.
- Updated dependencies [1a2b3c4]

## 1.1.0

### Major Changes

- abcdef0: Dropped Node 18.
`;

describe("the changelog", () => {
  const changesets = readChangesets(dir);

  it("reads every changeset of the folder, with each package's bump, and skips its README", () => {
    expect(changesets.map((c) => c.id)).toEqual(["both-fix", "client-retries", "hostile"]);
    expect(changesets[0]?.releases).toEqual([
      { name: "@acme/client", type: "patch" },
      { name: "@acme/server", type: "major" },
    ]);
    expect(changesets[1]?.summary).toBe("The client retries `429` answers.");
  });

  it("refuses front matter that changesets would refuse, naming the file", () => {
    expect(() => parseChangeset("bad", '---\n"@acme/client": huge\n---\nText')).toThrow(/bad\.md.*huge/);
    expect(() => parseChangeset("none", "Just text")).toThrow(/none\.md: no front matter/);
    // "none" leaves a package out of the release: it is not listed.
    expect(parseChangeset("quiet", '---\n"@acme/a": none\n"@acme/b": patch\n---\nText').releases).toEqual([
      { name: "@acme/b", type: "patch" },
    ]);
  });

  it("reads a CHANGELOG.md's versions, newest first, by kind, without the commit ids", () => {
    const versions = parseChangelog(CHANGELOG);
    expect(versions.map((v) => v.version)).toEqual(["1.2.0", "1.1.0"]);
    expect(versions[0]?.changes.map((c) => c.type)).toEqual(["minor", "patch"]);
    expect(versions[0]?.changes[0]?.markdown).toBe("- Lists are walked with `paginate()`.");
    expect(versions[1]?.changes).toEqual([{ type: "major", markdown: "- Dropped Node 18." }]);
  });

  it("groups the changes by package, then pending by bump (major, minor, patch), then released versions", () => {
    const packages = packageChanges(changesets, [{ name: "@acme/client", markdown: CHANGELOG }]);
    expect(packages.map((p) => p.name)).toEqual(["@acme/client", "@acme/server"]);
    const html = changelogMain(packages);
    const client = html.slice(html.indexOf('id="acme-client"'), html.indexOf('id="acme-server"'));
    const order = (...needles: string[]) => needles.map((n) => client.indexOf(n));
    const positions = order(
      'id="acme-client-unreleased"',
      'id="acme-client-unreleased-minor"',
      "The client retries <code>429</code> answers.",
      'id="acme-client-unreleased-patch"',
      "One change to two packages.",
      'id="acme-client-1-2-0"',
      "Lists are walked with <code>paginate()</code>.",
      'id="acme-client-1-1-0-major"',
      "Dropped Node 18.",
    );
    expect(
      positions.every((p) => p >= 0),
      String(positions),
    ).toBe(true);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
    expect(client).not.toContain("1a2b3c4");
    // The two-package changeset shows under the server's major changes too, and only there.
    const server = html.slice(html.indexOf('id="acme-server"'));
    expect(server.indexOf('id="acme-server-unreleased-major"')).toBeLessThan(
      server.indexOf("One change to two packages."),
    );
    expect(server.split("One change to two packages.")).toHaveLength(2);
    // Each has an id of its own: no id twice on the page.
    const ids = [...html.matchAll(/ id="([^"]+)"/g)].map((m) => m[1]);
    expect(ids).toEqual([...new Set(ids)]);
  });

  it("shows a changeset's date when known, newest first within a kind", () => {
    const dated = readChangesets(dir).map((c) => ({
      ...c,
      releases: [{ name: "@acme/x", type: "patch" as const }],
    }));
    const [a, b] = dated;
    if (!a || !b) throw new Error("fixture");
    a.date = new Date("2024-03-01T10:00:00Z");
    b.date = new Date("2025-07-09T10:00:00Z");
    const html = changelogMain(packageChanges(dated, []));
    expect(html).toContain('<time datetime="2025-07-09T10:00:00.000Z">9 July 2025</time>');
    expect(html.indexOf("9 July 2025")).toBeLessThan(html.indexOf("1 March 2024"));
  });

  it("escapes what the files hold: HTML in a change is shown, never run", () => {
    const html = changelogMain(packageChanges(changesets, []));
    expect(html).not.toMatch(/<script|<img/i);
    expect(html).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(html).toContain("&lt;img src=x onerror=&quot;alert(2)&quot;&gt;");
    const name = changelogMain(packageChanges([], [{ name: "<b>x</b>", markdown: CHANGELOG }]));
    expect(name).toContain("&lt;b&gt;x&lt;/b&gt;");
    expect(name).not.toContain("<b>");
  });

  it("says so when nothing is recorded", () => {
    expect(changelogMain([])).toContain("No change is recorded yet.");
    expect(readChangesets(join(dir, "missing"))).toEqual([]);
  });
});

// A changeset is written by anyone who opens a pull request, and the page is the project's own
// site: a link in it must not run script, nor an image call another host (the site works offline).
describe("links and images in a change", () => {
  const hostileDir = mkdtempSync(join(tmpdir(), "docs-hostile-changesets-"));
  afterAll(() => rmSync(hostileDir, { recursive: true, force: true }));
  const HOSTILE_LINKS = [
    "[plain](javascript:alert(1))",
    "[mixed](JaVaScRiPt:alert(2))",
    "[decimal](&#106;avascript:alert(3))",
    "[hex](&#x6A;avascript:alert(4))",
    "[padded](&#0000106&#0000097vascript:alert(5))",
    "[tab](java&#x09;script:alert(6))",
    "[raw-tab](<java\tscript:alert(7)>)",
    "[named](javascript&colon;alert(8))",
    "[newline](java&NewLine;script:alert(9))",
    "[control](&#1;javascript:alert(10))",
    "[vb](vbscript:msgbox(11))",
    "[data](data:text/html,%3Cscript%3Ealert(12)%3C/script%3E)",
    "[file](file:///etc/passwd)",
    "[by-reference][hostile]",
    "<javascript:alert(14)>",
  ];
  const HOSTILE_IMAGES = [
    "![tracker](http://127.0.0.2/track.png)",
    "![secure-tracker](https://127.0.0.2/track.png)",
    "![no-scheme](//127.0.0.2/track.png)",
    "![backslashes](\\\\\\\\127.0.0.2/track.png)",
    "![encoded](&#104;ttp://127.0.0.2/track.png)",
    "![data-image](data:image/svg+xml,%3Csvg/%3E)",
    "![script-image](javascript:alert(15))",
  ];
  const SAFE_LINKS: [string, string][] = [
    ["[web](https://example.com/a?b=1&amp;c=2)", "https://example.com/a?b=1&c=2"],
    ["[upper](HTTP://EXAMPLE.COM/)", "HTTP://EXAMPLE.COM/"],
    ["[mail](mailto:team@example.com)", "mailto:team@example.com"],
    ["[guide](guides/tasks.html#polling)", "guides/tasks.html#polling"],
    ["[fragment](#acme-server)", "#acme-server"],
    ["<https://example.com/auto>", "https://example.com/auto"],
  ];
  writeFileSync(
    join(hostileDir, "hostile-links.md"),
    `---\n"@acme/server": patch\n---\n\n${[...HOSTILE_LINKS, ...HOSTILE_IMAGES].join("\n\n")}\n\n${SAFE_LINKS.map(([md]) => md).join("\n\n")}\n\n![the logo](assets/logo.svg)\n\n[hostile]: javascript:alert(13)\n`,
  );
  const html = changelogMain(packageChanges(readChangesets(hostileDir), []));
  // What a browser reads from an attribute: the page escapes exactly & < > " in it, so anything
  // else that looks like a character reference (&#106;) would be decoded by the browser unseen here.
  const attributes = (name: string) =>
    [...html.matchAll(new RegExp(` ${name}="([^"]*)"`, "g"))].map((m) => {
      const value = m[1] ?? "";
      expect(value.replace(/&(amp|lt|gt|quot);/g, ""), value).not.toContain("&");
      return value
        .replace(/&lt;/g, "<")
        .replace(/&gt;/g, ">")
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, "&");
    });

  it("links only to http, https and mailto, or within the site, whatever the spelling", () => {
    const hrefs = attributes("href");
    // The browser's own URL parser (WHATWG), against a base like the site's.
    for (const href of hrefs)
      expect(new URL(href, "http://127.0.0.1/changelog.html").protocol, href).toMatch(/^(https?|mailto):$/);
    expect(hrefs).toEqual(expect.arrayContaining(SAFE_LINKS.map(([, href]) => href)));
  });

  it("keeps a refused link's text, as text", () => {
    for (const text of ["plain", "mixed", "decimal", "hex", "padded", "tab", "vb", "by-reference"])
      expect(html).toMatch(new RegExp(`>[^<]*\\b${text}\\b`));
    expect(html).not.toMatch(/<a\b[^>]*>(plain|mixed|decimal|by-reference)</);
  });

  it("loads images from the site only: a remote image shows its alt text", () => {
    const sources = attributes("src");
    expect(sources).toEqual(["assets/logo.svg"]);
    for (const alt of ["tracker", "secure-tracker", "no-scheme", "encoded", "data-image"])
      expect(html).toContain(alt);
    expect(html).not.toContain("127.0.0.2");
  });
});
