// Characters that act rather than show: C0 and C1 controls and DEL (Unicode's Cc), the invisible
// format characters (Cf: the bidi embeddings, overrides and isolates U+202A–U+202E and
// U+2066–U+2069, zero-width characters, U+FEFF) and the line and paragraph separators. Text from a
// target or a HAR may carry any of them to the terminal (ESC[2J clears the screen) or into a report
// (U+202E shows what follows reversed); there they are shown as visible escapes instead.

const CONTROL = /[\p{Cc}\p{Cf}\u2028\u2029]/gu;

/** `\x1b` for a character up to U+00FF, `\u202e` up to U+FFFF, `\u{e0001}` beyond. */
function visible(char: string): string {
  const code = char.codePointAt(0) as number;
  const hex = code.toString(16);
  if (code <= 0xff) return `\\x${hex.padStart(2, "0")}`;
  return code <= 0xffff ? `\\u${hex.padStart(4, "0")}` : `\\u{${hex}}`;
}

/** The text with every such character shown as its escape, but those in `keep` (e.g. "\n\t"). */
export function showControls(text: string, keep = ""): string {
  return text.replace(CONTROL, (char) => (keep.includes(char) ? char : visible(char)));
}
