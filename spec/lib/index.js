// The bundled description, read from dist/ (run `pnpm bundle` first).
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const bundlePath = fileURLToPath(new URL("../dist/openapi.json", import.meta.url));

/** The bundled description of one product ("cloud", …) or, without argument, of the whole API. */
export function loadBundle(product) {
  const file = product ? fileURLToPath(new URL(`../dist/${product}.json`, import.meta.url)) : bundlePath;
  return JSON.parse(readFileSync(file, "utf8"));
}

export { createSpecValidator, pointer, resolveRef } from "./validator.js";
