// The region state the spec says to use: the one its Region schema shows ("ACTIVE"). Discovery
// picks a region in it, and refuses a --region-id in another.

import { offsetList } from "./offset.js";
import { operationAt, schemaAt, successSchemaPointer, valuesOf } from "./spec.js";

export const REGIONS = "/cloud/v1/regions";

export const listRegions = () => operationAt("get", REGIONS);

export function usableRegionState(): string {
  const operation = listRegions();
  const items = offsetList(operation).pagination.itemsField;
  const states = valuesOf(
    schemaAt(successSchemaPointer(operation), "properties", items, "items", "properties", "state"),
  );
  if (states.length !== 1)
    throw new Error(
      `The spec's region schema shows ${states.length} states (${states.join(", ")}); the suite expects the one usable state.`,
    );
  return states[0] as string;
}
