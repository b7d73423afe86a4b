// How the site's search splits text into terms. One file for both sides, so a query is split the
// way the index was: the build imports it (src/search-index.ts indexes the guides and the reference
// with it) and the browser loads it as a classic script before searching (assets/search.js).
globalThis.platformSearchTerms = (text) => {
  const terms = [];
  for (const word of String(text).split(/[^\p{L}\p{N}_]+/u)) {
    if (!word) continue;
    terms.push(word);
    // A name is found whole and by its parts: check_limits, checkVirtualGpuClusterLimits.
    const parts = word.split(/_+|(?<=\p{Ll})(?=\p{Lu})/u).filter(Boolean);
    if (parts.length > 1) terms.push(...parts);
  }
  return terms;
};
