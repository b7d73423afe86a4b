// What a terminal or a page would act on rather than show, for the tests that check that no text
// from a target reaches one raw: C0 controls (but those in `keep`), DEL and C1, bidi embeddings,
// overrides and isolates, the zero-width space and U+FEFF. Written out by code point, apart from
// src/shared/controls.ts, so that a test does not check the code with itself.

const ACTING: [number, number][] = [
  [0x00, 0x1f],
  [0x7f, 0x9f],
  [0x200b, 0x200b],
  [0x202a, 0x202e],
  [0x2066, 0x2069],
  [0xfeff, 0xfeff],
];

/** The acting characters in `text` as U+ codes (empty: none). */
export function actingCharacters(text: string, keep = "\n\t"): string[] {
  const found = new Set<string>();
  for (const char of text) {
    const code = char.codePointAt(0) as number;
    if (keep.includes(char) || !ACTING.some(([from, to]) => code >= from && code <= to)) continue;
    found.add(`U+${code.toString(16).padStart(4, "0")}`);
  }
  return [...found];
}
