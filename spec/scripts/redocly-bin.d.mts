/** The path of the project's pinned Redocly CLI entry (run it with `node`). */
export declare function redoclyBin(): string;
