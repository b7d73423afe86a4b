// The bundled description, read from dist/ (run `pnpm bundle` first), and its model.
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { buildModel } from "./model/build.js";
import type { SpecModel } from "./model/types.js";

export const PRODUCT_BUNDLES = ["cloud", "iam", "streaming", "security", "storage"] as const;
export type ProductBundle = (typeof PRODUCT_BUNDLES)[number];

export const bundlePath = fileURLToPath(new URL("../dist/openapi.json", import.meta.url));

/** The bundled description of one product ("cloud", …) or, without argument, of the whole API. */
export function loadBundle(product?: ProductBundle): Record<string, unknown> {
  const file = product ? fileURLToPath(new URL(`../dist/${product}.json`, import.meta.url)) : bundlePath;
  try {
    return JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT")
      throw new Error(`${file} does not exist: bundle the description first (pnpm bundle).`);
    throw error;
  }
}

const models = new Map<string, SpecModel>();

/** The model of the bundled description (built once per process). */
export function loadModel(product?: ProductBundle): SpecModel {
  const key = product ?? "";
  let model = models.get(key);
  if (!model) {
    model = buildModel(loadBundle(product));
    models.set(key, model);
  }
  return model;
}
