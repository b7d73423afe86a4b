// What a query finds and how a result shows where it matched. One file for both sides, so the tests
// judge what the browser shows: the browser loads it as a classic script (assets/search.js), the
// tests import it (test/search-index.test.ts). It returns plain text parts, never HTML: the page
// puts them in with textContent and <mark>, so nothing from the index can become markup.
globalThis.platformSearchResults = (() => {
  /** MiniSearch's search options: every word must match; a word's start finds it; typos in long ones. */
  const options = {
    prefix: true,
    // Edits a word may differ by: none under 5 letters (too many short words lie one edit apart),
    // one in 5-6, a fifth of the word from 7 on but at least two: MiniSearch counts a swapped pair
    // of letters ("regoins") as two edits, and a fifth of 7 letters rounds to one.
    fuzzy: (term) =>
      term.length < 5 ? false : term.length < 7 ? 1 : Math.max(2, Math.round(term.length * 0.2)),
    combineWith: "AND",
    boost: { title: 4, keywords: 3, context: 2 },
  };
  const LIMIT = 12;
  // A kind may fill half the list while others wait: "pagination" matches a dozen guide sections,
  // and the paginated operations and the reference's own rule must still show.
  const PER_KIND = 6;
  const WORD = /[\p{L}\p{N}_]+/gu;

  /** The results to show, in score order: up to LIMIT, at most PER_KIND of a kind unless room is left. */
  const pick = (results) => {
    const chosen = new Set();
    const counts = {};
    for (const result of results) {
      if (chosen.size >= LIMIT) break;
      const count = counts[result.kind] ?? 0;
      if (count < PER_KIND) {
        chosen.add(result);
        counts[result.kind] = count + 1;
      }
    }
    for (const result of results) {
      if (chosen.size >= LIMIT) break;
      chosen.add(result);
    }
    return results.filter((result) => chosen.has(result));
  };

  /** Whether a word of the text is one the result matched: whole, or by a part of a name. */
  const matcher = (terms) => {
    const wanted = new Set(terms.map((term) => String(term).toLowerCase()));
    return (word) => globalThis.platformSearchTerms(word).some((term) => wanted.has(term.toLowerCase()));
  };

  /** `text` as parts `{ text, mark }`, every matched word marked. */
  const highlight = (value, terms) => {
    const text = String(value ?? "");
    const isMatch = matcher(terms);
    const parts = [];
    let at = 0;
    for (const found of String(text).matchAll(WORD)) {
      if (!isMatch(found[0])) continue;
      if (found.index > at) parts.push({ text: text.slice(at, found.index), mark: false });
      parts.push({ text: found[0], mark: true });
      at = found.index + found[0].length;
    }
    if (at < text.length) parts.push({ text: text.slice(at), mark: false });
    return parts;
  };

  /**
   * About `width` characters of `text` around its first matched word (its start when none is),
   * cut at spaces, with "…" where it was cut; as parts `{ text, mark }`.
   */
  const snippet = (text, terms, width = 170) => {
    const full = String(text ?? "");
    if (!full) return [];
    const isMatch = matcher(terms);
    let first = 0;
    for (const found of full.matchAll(WORD))
      if (isMatch(found[0])) {
        first = found.index;
        break;
      }
    // A window from a third of the width before the match (further back near the end, so it stays
    // full), starting at the first sentence in it that holds the match and fills half the width,
    // else at a space.
    let start = Math.min(Math.max(0, first - Math.floor(width / 3)), Math.max(0, full.length - width));
    if (start > 0) {
      const sentence = full.indexOf(". ", start);
      const space = full.indexOf(" ", start);
      if (sentence >= 0 && sentence + 2 <= first && full.length - sentence > width / 2) start = sentence + 2;
      else start = space >= 0 && space < first ? space + 1 : first;
    }
    let end = Math.min(full.length, start + width);
    if (end < full.length) {
      const space = full.lastIndexOf(" ", end);
      if (space > first) end = space;
    }
    const parts = highlight(full.slice(start, end), terms);
    if (start > 0) parts.unshift({ text: "…", mark: false });
    if (end < full.length) parts.push({ text: "…", mark: false });
    return parts;
  };

  /** What `engine` (the loaded MiniSearch) finds for `query`, with each result's title and snippet parts. */
  const find = (engine, query) =>
    pick(engine.search(query, options)).map((result) => ({
      ...result,
      titleParts: highlight(result.title ?? "", result.terms),
      snippetParts: snippet(result.text, result.terms),
    }));

  return { options, pick, highlight, snippet, find };
})();
