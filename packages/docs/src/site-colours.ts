// site.css sets each of the site's colours once, in its `:root` block, as light-dark(light, dark).
// Redoc's theme needs those colours as literal strings (it computes shades from them), so a CSS
// variable cannot be handed to it: they are read out of site.css here, and a colour this strict
// reader cannot read fails the build, naming it, rather than giving Redoc something else.

/** One colour of the site: its value in the light theme and in the dark one. */
export interface SiteColour {
  light: string;
  dark: string;
}

/** A colour Redoc can compute shades from. */
const HEX = "#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6})";
const PAIR = new RegExp(`^light-dark\\((${HEX}), (${HEX})\\)$`);

/**
 * The colours of site.css's `:root` block: `colour("accent")` is `--accent`'s pair. It throws,
 * naming the variable and what site.css says, unless that is `light-dark(#light, #dark)` with two
 * hex colours (#rgb or #rrggbb) and declared once.
 */
export function siteColours(css: string): (name: string) => SiteColour {
  const root = /(?:^|\})\s*:root\s*\{([^}]*)\}/.exec(css.replace(/\/\*[\s\S]*?\*\//g, ""))?.[1];
  if (root === undefined)
    throw new Error("assets/site.css has no `:root { ... }` block to read the site's colours from.");
  const declarations = [...root.matchAll(/--([\w-]+)\s*:\s*([^;]*);/g)].map(([, name = "", value = ""]) => ({
    name,
    value: value.trim(),
  }));
  return (name) => {
    const found = declarations.filter((d) => d.name === name);
    const pair = found.length === 1 ? PAIR.exec(found[0]?.value ?? "") : null;
    if (!pair?.[1] || !pair[2]) {
      const said =
        found.length === 0
          ? "does not declare it"
          : `has ${found.map((d) => `\`${d.value}\``).join(" and ")}`;
      throw new Error(
        `assets/site.css: Redoc's theme (src/reference.ts) uses --${name}, and site.css's :root block ${said}; ` +
          "expected it once, as light-dark(#light, #dark) with two hex colours (#rgb or #rrggbb).",
      );
    }
    return { light: pair[1], dark: pair[2] };
  };
}
