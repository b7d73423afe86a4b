// Offset lists: `limit` just outside the bounds the spec gives it, and `offset` below its minimum,
// are refused (400) or clamped (a 200 page never longer than the maximum).

import type { OperationModel } from "@platform-api/spec";
import { check } from "../check.js";
import { type OffsetList, offsetList, queryText, readOffsetPage } from "../offset.js";
import { requestFor } from "../operations.js";
import type { Check } from "./types.js";

/** Just outside the bounds the spec gives limit and offset (as many as it gives). */
function outside({ limit, offset }: OffsetList): Record<string, number>[] {
  return [
    ...(limit.minimum === undefined ? [] : [{ [limit.name]: limit.minimum - 1 }]),
    ...(limit.maximum === undefined ? [] : [{ [limit.name]: limit.maximum + 1 }]),
    { [limit.name]: -1 },
    ...(offset.minimum === undefined ? [] : [{ [offset.name]: offset.minimum - 1 }]),
  ];
}

const bounds = (operation: OperationModel) => {
  const { limit } = offsetList(operation);
  return `${limit.minimum ?? "…"}..${limit.maximum ?? "…"}`;
};

export const offsetLimitBounds: Check = {
  id: "pagination.offset.limit-bounds",
  severity: "must",
  appliesTo: "every x-pagination list of style offset",
  applies: (operation) => operation.pagination?.style === "offset",
  title: (operation) => {
    const { limit, offset } = offsetList(operation);
    return `${operation.operationId}: ${limit.name} outside ${bounds(operation)} and negative ${offset.name} are refused (400) or clamped`;
  },
  calls: (operation) => outside(offsetList(operation)).map((query) => `GET ?${queryText(query)}`),
  async run(api, operation) {
    const list = offsetList(operation);
    const { limit, pagination } = list;
    const request = requestFor(api, operation);
    const wrong: string[] = [];
    for (const query of outside(list)) {
      const answer = await api.http.send({ ...request, query });
      if (answer.status === 400) continue;
      const got = answer.status === 200 ? readOffsetPage(list, answer.body, 0) : undefined;
      if (answer.status !== 200)
        wrong.push(`${answer.url} answered ${answer.status} (expected 400, or 200 clamped)`);
      else if (!got || (limit.maximum !== undefined && got.items.length > limit.maximum))
        wrong.push(
          `${answer.url} answered 200 with ${got ? got.items.length : "no"} ${pagination.itemsField} (at most ${limit.maximum})`,
        );
    }
    check(wrong.length === 0, wrong.join("; "));
  },
};
