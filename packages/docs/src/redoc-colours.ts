// The colours only Redoc's theme uses (src/reference.ts): every other colour it gets is one of the
// site's, read from site.css. No colour is written both here and in site.css.

/** `color` at `alpha`, as rgba(): Redoc's tinted backgrounds, from the colour written once. */
export function withAlpha(color: string, alpha: number): string {
  const hex = color.slice(1);
  const full = hex.length === 3 ? [...hex].map((digit) => digit + digit).join("") : hex;
  const [red, green, blue] = [0, 2, 4].map((at) => Number.parseInt(full.slice(at, at + 2), 16));
  return `rgba(${red}, ${green}, ${blue}, ${alpha})`;
}

/** The light theme's own: its samples' panel stays dark, as in the dark theme. */
export const LIGHT_REDOC_COLOURS = {
  rightPanel: "#172033",
};

export const DARK_REDOC_COLOURS = {
  strongBorder: "#3a4456",
  success: "#4cc38a",
  warning: "#e0a526",
  /** A response's status and tab, by its kind (each background: the theme's colour of its kind, faint). */
  responses: {
    success: "#6fd39a",
    error: "#ff8a80",
    redirect: "#f0b45b",
    info: "#7cc4ff",
  },
  schemaLines: "#4a5d86",
  /** Text a step softer than the ink: schema titles, the sidebar's entries. */
  softText: "#c6cbd5",
  code: "#ffab9e",
  /** Code in running text: white, faint, over whatever is behind it. */
  codeBackground: "rgba(255, 255, 255, 0.07)",
  visitedLink: "#a98bff",
  /** A link under the pointer, and the sidebar's entry being read. */
  brightLink: "#a8c1ff",
  sidebar: "#131a25",
  rightPanel: "#0b1019",
  codeBlock: "#05080d",
};
