// Types of search-results.js for the tests, which import it; not copied into the site.
declare global {
  interface SearchTextPart {
    text: string;
    mark: boolean;
  }
  var platformSearchResults: {
    options: Record<string, unknown>;
    pick<T extends { kind: string }>(results: T[]): T[];
    highlight(text: string, terms: string[]): SearchTextPart[];
    snippet(text: string, terms: string[], width?: number): SearchTextPart[];
    find(
      engine: { search(query: string, options: Record<string, unknown>): unknown[] },
      query: string,
    ): (Record<string, unknown> & {
      id: string;
      kind: string;
      title: string;
      titleParts: SearchTextPart[];
      snippetParts: SearchTextPart[];
    })[];
  };
}

export {};
