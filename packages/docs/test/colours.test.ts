// Each colour written once: site.css's light-dark() pairs are the site's colours, Redoc's themes
// read them from there, and the colours only Redoc uses are in src/redoc-colours.ts and nowhere else.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadBundle } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { buildSite } from "../src/build.js";
import { GUIDE_ORDER } from "../src/guides.js";
import { DARK_REDOC_COLOURS, LIGHT_REDOC_COLOURS, withAlpha } from "../src/redoc-colours.js";
import { redocThemes } from "../src/reference.js";
import { siteColours } from "../src/site-colours.js";

const packageDir = new URL("..", import.meta.url).pathname;
const siteCss = readFileSync(join(packageDir, "assets/site.css"), "utf8");
const withoutComments = (text: string) => text.replace(/\/\*[\s\S]*?\*\//g, "");

/** A colour written out: #hex (not a character reference such as `&#106;`) or rgb()/rgba() of numbers. */
const COLOUR_LITERAL = /(?<![&\w])#(?:[0-9a-f]{8}|[0-9a-f]{6}|[0-9a-f]{3,4})\b|rgba?\(\s*\d[^)]*\)/gi;

/** One spelling per colour: #rgb as #rrggbb, lower case, rgba() without its spaces. */
function normalized(colour: string): string {
  const short = /^#([0-9a-f])([0-9a-f])([0-9a-f])$/i.exec(colour);
  const long = short ? `#${short[1]}${short[1]}${short[2]}${short[2]}${short[3]}${short[3]}` : colour;
  return long.toLowerCase().replace(/\s+/g, "");
}

/** Every string value of a (nested) object. */
const leaves = (value: unknown): string[] =>
  typeof value === "string"
    ? [value]
    : typeof value === "object" && value
      ? Object.values(value).flatMap(leaves)
      : [];

const redocOnly = [...leaves(LIGHT_REDOC_COLOURS), ...leaves(DARK_REDOC_COLOURS)];

describe("the site's colours, written once", () => {
  it("writes no colour in src/ but in src/redoc-colours.ts", () => {
    const srcDir = join(packageDir, "src");
    const written = readdirSync(srcDir)
      .filter((file) => file.endsWith(".ts") && file !== "redoc-colours.ts")
      .flatMap((file) =>
        [...readFileSync(join(srcDir, file), "utf8").matchAll(COLOUR_LITERAL)].map((m) => `${file}: ${m[0]}`),
      );
    expect(
      written,
      "a colour of site.css is read from it (src/site-colours.ts); Redoc's own are in src/redoc-colours.ts",
    ).toEqual([]);
  });

  it("writes none of Redoc's own colours in site.css too, nor one of them twice", () => {
    const inSiteCss = new Set(
      [...withoutComments(siteCss).matchAll(COLOUR_LITERAL)].map((m) => normalized(m[0])),
    );
    expect(redocOnly.filter((colour) => inSiteCss.has(normalized(colour)))).toEqual([]);
    const seen = redocOnly.map(normalized);
    expect(seen.filter((colour, i) => seen.indexOf(colour) !== i)).toEqual([]);
  });

  it("gives Redoc site.css's colours as literal strings it can compute shades from", () => {
    const themes = redocThemes(siteCss);
    const colours = [...leaves(themes.light), ...leaves(themes.dark)].filter((value) =>
      /^(#|rgb|var\(|light-dark\()/.test(value),
    );
    expect(colours.length).toBeGreaterThan(30);
    for (const colour of colours) expect(colour).toMatch(/^(#[0-9a-f]{3}|#[0-9a-f]{6}|rgba\([\d., ]+\))$/i);
    // A colour changed in site.css is changed in Redoc's themes: nothing else holds a copy of it.
    const recoloured = siteCss.replace(/--accent: [^;]*;/, "--accent: light-dark(#010203, #040506);");
    const changed = redocThemes(recoloured);
    expect(changed.light.colors.primary.main).toBe("#010203");
    expect(changed.dark.colors.primary.main).toBe("#040506");
    expect(changed.dark.typography.links.color).toBe("#040506");
  });

  it("tints with the colour written once", () => {
    expect(withAlpha("#4cc38a", 0.12)).toBe("rgba(76, 195, 138, 0.12)");
    expect(withAlpha("#fff", 0.5)).toBe("rgba(255, 255, 255, 0.5)");
  });
});

describe("the strict reader of site.css's colours", () => {
  const css = (declarations: string) =>
    `body { color: red; }\n:root {\n  color-scheme: light dark;\n${declarations}\n}\n`;

  it("reads a light-dark() pair of hex colours from :root, comments aside", () => {
    const colour = siteColours(
      css("  /* --ink: light-dark(#000, #111); */\n  --ink: light-dark(#18202f, #EEE);"),
    );
    expect(colour("ink")).toEqual({ light: "#18202f", dark: "#EEE" });
  });

  it("fails, naming the variable and what site.css says, on a colour it cannot read", () => {
    const colour = siteColours(
      css(
        [
          "  --header-bg: light-dark(rgba(255, 255, 255, 0.96), rgba(15, 20, 28, 0.96));",
          "  --note-line: #c98a00;",
          "  --ink: light-dark(#18202f, #e6e9ef);",
          "  --ink: light-dark(#18202f, #e6e9ee);",
          "  --muted: light-dark(#5b6577, var(--ink));",
          "  --line: light-dark(#e2e6e, #2a3242);",
        ].join("\n"),
      ),
    );
    expect(() => colour("accent")).toThrow(/uses --accent, and site\.css's :root block does not declare it/);
    expect(() => colour("header-bg")).toThrow(/--header-bg.*`light-dark\(rgba\(255, 255, 255, 0\.96\)/);
    expect(() => colour("note-line")).toThrow(/--note-line.*has `#c98a00`; expected it once, as light-dark/);
    expect(() => colour("ink")).toThrow(
      /--ink.*has `light-dark\(#18202f, #e6e9ef\)` and `light-dark\(#18202f, #e6e9ee\)`/,
    );
    expect(() => colour("muted")).toThrow(/--muted/);
    expect(() => colour("line")).toThrow(/--line/);
  });

  it("fails when site.css has no :root block", () => {
    expect(() => siteColours("body { color: red; }")).toThrow(
      /assets\/site\.css has no `:root \{ \.\.\. \}` block/,
    );
  });
});

// The build, not only the reader: a site.css Redoc's theme cannot be made from stops it before the
// last build is removed. The package is a temporary copy of its layout, never the repository.
describe("a build whose site.css has a colour Redoc cannot read", () => {
  it("fails, naming the colour, and leaves the last build", () => {
    const root = mkdtempSync(join(tmpdir(), "docs-colours-"));
    try {
      const pkg = join(root, "docs");
      const out = join(root, "dist");
      mkdirSync(join(pkg, "assets"), { recursive: true });
      mkdirSync(join(pkg, "guides"));
      mkdirSync(out);
      writeFileSync(join(out, "index.html"), "<!doctype html>");
      writeFileSync(
        join(pkg, "assets/site.css"),
        ":root {\n  --accent: light-dark(rgba(0, 0, 0, 0.5), #fff);\n}\n",
      );
      for (const slug of GUIDE_ORDER) writeFileSync(join(pkg, `guides/${slug}.md`), `# ${slug}\n\nText.\n`);
      expect(() => buildSite(out, loadBundle(), { packageDir: pkg })).toThrow(
        /assets\/site\.css: Redoc's theme .* uses --accent, and site\.css's :root block has `light-dark\(rgba/,
      );
      expect(existsSync(join(out, "index.html"))).toBe(true);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });
});
