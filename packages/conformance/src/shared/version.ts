import { readFileSync } from "node:fs";

/** The package's own version, read from its manifest (src/ and dist/ both sit beside it). */
export const VERSION: string = JSON.parse(
  readFileSync(new URL("../../package.json", import.meta.url), "utf8"),
).version;
