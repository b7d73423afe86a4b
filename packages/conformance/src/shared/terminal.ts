// What reaches the user's terminal. A target's answers and a HAR's entries end up in printed lines
// (a region's name, a reason quoting an answer, a method), and a terminal obeys the control
// characters in them. Every line is printed through `forTerminal`, which shows them as visible
// escapes (src/shared/controls.ts). The suite's own colours come through `colors`: their escape
// sequences carry, instead of ESC, a marker made anew by each process, which no text from outside
// can know and which `forTerminal` alone turns back into ESC. Colour with `colors`, not picocolors
// directly: a line's raw ESC is shown as `\x1b`, whoever wrote it.

import { randomBytes } from "node:crypto";
import pc from "picocolors";
import { showControls } from "./controls.js";

const ESC = "\x1b";
/** Stands for ESC in the suite's own colour codes until a line is printed (a private-use character and a nonce). */
const MARK = `\u{f0000}${randomBytes(12).toString("hex")}`;
/** What a printed line keeps as it is: lines may hold line feeds and tabs. */
const KEPT = "\n\t";

export type Colors = Record<"bold" | "dim" | "red" | "green" | "yellow", (text: string) => string>;

/** picocolors' colours (on or off), made safe to print through `forTerminal`. */
export function createColors(enabled: boolean): Colors {
  const real = pc.createColors(enabled);
  // The text's own controls are shown first; then the marked codes of colours inside it are real
  // again for picocolors, which reopens an outer colour after an inner one closes.
  const paint = (colour: (text: string) => string) => (text: string) =>
    colour(showControls(text, KEPT).replaceAll(MARK, ESC)).replaceAll(ESC, MARK);
  return {
    bold: paint(real.bold),
    dim: paint(real.dim),
    red: paint(real.red),
    green: paint(real.green),
    yellow: paint(real.yellow),
  };
}

/** The suite's colours: on when picocolors finds the terminal takes them (NO_COLOR, FORCE_COLOR). */
export const colors: Colors = createColors(pc.isColorSupported);

/** A line as it may be printed: every control shown as a visible escape, the suite's colours real. */
export function forTerminal(line: string): string {
  return showControls(line, KEPT).replaceAll(MARK, ESC);
}
