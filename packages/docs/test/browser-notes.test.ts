// No note of the reference contradicts a field it shows: a field the platform's published
// description adds as required (a "platform" mark beside the "required" label) is never under a
// "Not specified" note of the seed's that does not say which wins. It needs the browser: what
// contradicts what is a matter of what Redoc renders, not of the document it is given. Redoc decides
// which fields show "required" (a schema's own list, a case of an if/then, a shared schema under
// several operations), where a description given on a schema is shown (on the field that holds it,
// or on none), and it shows nested fields only once they are opened; this test opens every one.
// Nothing here measures speed: each step waits for an element or a rendered frame.

import { loadBundle } from "@platform-api/spec";
import type { Page } from "playwright-core";
import { beforeAll, describe, expect, it } from "vitest";
import { listOperations } from "../src/operations.js";
import { operationAnchor } from "../src/reference.js";
import { WHICH_WINS } from "../src/unspecified.js";
import { watchedSite } from "./shared-reference.js";

const TIMEOUT = 60_000;
const bundle = loadBundle();
const operations = listOperations(bundle);
/** How many times an operation's fields are opened, one level deeper each time: past any nesting. */
const MAX_DEPTH = 20;

let page: Page;

beforeAll(async () => {
  // The worker's reference (shared-reference.ts), which browser.test.ts may have opened parts of.
  page = await (await watchedSite()).reference();
}, TIMEOUT * 2);

/** Two rendered frames: what a click changed is on the page (Redoc renders in the click's task). */
const rendered = () =>
  page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));

/** Opens every answer and every nested field of the operation's section, level by level. */
async function openAll(anchor: string): Promise<void> {
  const section = page.locator(`[id="${anchor}"]`);
  await section.waitFor({ state: "attached" });
  for (let depth = 0; depth < MAX_DEPTH; depth++) {
    // A field's button keeps its label ("expand x") open or closed; its row is marked "expanded"
    // when open (browser.test.ts may have opened some). The page marks the ones clicked here, so
    // none is clicked twice.
    const clicked = await section.evaluate((root) => {
      const closed = [
        ...root.querySelectorAll<HTMLButtonElement>(
          'tr:not(.expanded) > td[kind="field"] > button[aria-label^="expand "]:not([data-opened]), button:has(> strong):not([aria-expanded="true"]):not([data-opened])',
        ),
      ];
      for (const button of closed) {
        button.dataset.opened = "";
        button.click();
      }
      return closed.length;
    });
    if (clicked === 0) return;
    await rendered();
  }
  throw new Error(`${anchor}: fields still closed after ${MAX_DEPTH} levels`);
}

interface Shown {
  /** Fields shown required with the platform's mark, by name and the names of the fields above them. */
  platformRequired: { field: string; under: string[] }[];
  notes: { text: string; on: string | undefined; whichWins: boolean }[];
  /** Each required platform field under a note (on a field above it or on the whole operation), and whether it says which wins. */
  pairs: { field: string; note: string; whichWins: boolean }[];
}

/** What the operation's section shows: the fields required with a platform mark, the notes, and which note is over which field. */
function shownIn(anchor: string): Promise<Shown> {
  return page.locator(`[id="${anchor}"]`).evaluate((root, whichWins) => {
    const fieldName = (row: Element) =>
      row.querySelector(':scope > td[kind="field"]')?.getAttribute("title") ?? "";
    /** The rows of the fields that hold `element`: its own row's, then each one above. */
    const holders = (element: Element): Element[] => {
      const rows: Element[] = [];
      for (let at: Element | null = element; at; ) {
        const row: Element | null = at.closest("tr");
        if (!row || !root.contains(row)) break;
        // A nested schema's row follows its field's row.
        const previous = row.previousElementSibling;
        const field = row.querySelector(':scope > td[kind="field"]')
          ? row
          : previous?.querySelector(':scope > td[kind="field"]')
            ? previous
            : null;
        if (field) rows.push(field);
        at = row.parentElement;
      }
      return rows;
    };
    const platformRequired: { field: string; under: string[]; row: Element }[] = [];
    for (const cell of root.querySelectorAll('td[kind="field"]')) {
      const row = cell.parentElement;
      if (!row) continue;
      const required = [...cell.children].some((c) => c.textContent?.trim() === "required");
      const marked = row.querySelector(":scope > td:not([kind]) a.platform-mark") !== null;
      if (required && marked)
        platformRequired.push({
          field: fieldName(row),
          under: holders(row).slice(1).map(fieldName),
          row,
        });
    }
    const notes = [...root.querySelectorAll(".unspecified-note")].map((note) => {
      // The field the note is shown on (its own, or the one whose nested schema shows it): it is
      // over that field and every one nested in it. A note on no field (on the operation, its
      // request body or one answer) is over the fields of that block that it speaks of: those it
      // names, or all of them when it speaks of fields, of what is required or of the body's shape
      // (a note on, say, the values of task_type is about no other field).
      const row = holders(note)[0];
      let block: Element = note;
      while (block !== root && !block.querySelector(":scope > button > strong") && block.parentElement)
        block = block.parentElement;
      const text = note.textContent?.replace(/\s+/g, " ").trim() ?? "";
      const general = /\b(fields?|required|shape)\b/i.test(text);
      return {
        text,
        on: row ? fieldName(row) : undefined,
        over: (field: Element) =>
          row
            ? holders(field).includes(row)
            : block.contains(field) && (general || new RegExp(`\\b${fieldName(field)}\\b`).test(text)),
        whichWins: (note.querySelector(".which-wins")?.textContent ?? "").includes(whichWins),
      };
    });
    const pairs = platformRequired.flatMap((f) =>
      notes
        .filter((n) => n.over(f.row))
        .map((n) => ({
          field: [...f.under].reverse().concat(f.field).join("."),
          note: n.text,
          whichWins: n.whichWins,
        })),
    );
    return {
      platformRequired: platformRequired.map(({ field, under }) => ({ field, under })),
      notes: notes.map(({ text, on, whichWins: wins }) => ({ text, on, whichWins: wins })),
      pairs,
    };
  }, WHICH_WINS);
}

const shown = new Map<string, Promise<Shown>>();
/** What an operation's section shows once all of it is open; each operation opened once, in turn. */
let queue: Promise<unknown> = Promise.resolve();
function shownFor(anchor: string): Promise<Shown> {
  let found = shown.get(anchor);
  if (!found) {
    found = queue.then(async () => {
      await openAll(anchor);
      return shownIn(anchor);
    });
    queue = found.catch(() => undefined);
    shown.set(anchor, found);
  }
  return found;
}

describe("the reference's notes and its platform-required fields", () => {
  it.each(operations.map((op) => [op.operationId, operationAnchor(op)] as const))(
    "%s: no field required by the platform is said to be not specified without saying which wins",
    async (_, anchor) => {
      const { pairs } = await shownFor(anchor);
      expect(pairs.filter((p) => !p.whichWins)).toEqual([]);
    },
  );

  it("found nested platform-required fields and notes over them, so the check above is not empty", async () => {
    const all = await Promise.all(operations.map((op) => shownFor(operationAnchor(op))));
    expect(all.some((s) => s.platformRequired.some((f) => f.under.length > 0))).toBe(true);
    expect(all.flatMap((s) => s.notes).length).toBeGreaterThan(0);
    const pairs = all.flatMap((s) => s.pairs);
    expect(pairs.length).toBeGreaterThan(0);
    // A note on a field is over the fields nested in it, not over its siblings: some pair is one.
    expect(
      all.some((s) => s.notes.some((n) => n.on !== undefined && s.pairs.some((p) => p.note === n.text))),
    ).toBe(true);
  });
});
