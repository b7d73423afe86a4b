// Types of search-terms.js for the build, which imports it; not copied into the site.
declare global {
  var platformSearchTerms: (text: string) => string[];
}

export {};
