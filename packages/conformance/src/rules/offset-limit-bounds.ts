// Offset lists: a limit outside the bounds the spec gives it, and an offset below its minimum, are
// refused (400) or clamped (a 200 page never longer than the maximum).

import type { OffsetList } from "../facts/offset.js";
import { operationNeeds } from "../facts/operations.js";
import { requestRate } from "../facts/rate.js";
import { offsetLists } from "./lists.js";
import { rule } from "./types.js";

/** What is outside the spec's bounds in a request's limit and offset, in words; empty when nothing. */
export function outOfBounds({ limit, offset }: OffsetList, query: URLSearchParams): string[] {
  const out: string[] = [];
  const asked = (name: string) => (query.has(name) ? Number(query.get(name)) : undefined);
  const l = asked(limit.name);
  if (l !== undefined && Number.isInteger(l) && (l < (limit.minimum ?? 0) || l > (limit.maximum ?? Infinity)))
    out.push(`${limit.name}=${l}`);
  const o = asked(offset.name);
  if (o !== undefined && Number.isInteger(o) && o < (offset.minimum ?? 0)) out.push(`${offset.name}=${o}`);
  return out;
}

export const offsetLimitBounds = rule({
  ...offsetLists,
  id: "pagination.offset.limit-bounds",
  severity: "must",
  // Not a refusal rule: the spec lets a server clamp, so a 200 is an answer it allows.
  refuses: false,
  perOperation: true,
  judges:
    "every request with a limit or offset outside the spec's bounds: 400, or a 200 page within the maximum",
  on: "answer",
  title: (operation) => {
    const { limitParam, offsetParam } = operation.pagination as { limitParam: string; offsetParam: string };
    const limit = operation.parameters.find((p) => p.name === limitParam);
    return `${operation.operationId}: ${limitParam} outside ${limit?.minimum ?? "…"}..${limit?.maximum ?? "…"} and negative ${offsetParam} are refused (400) or clamped`;
  },
  needs: operationNeeds,
  judge: ({ operation, query, answer, exchange }) => {
    if (exchange.retried || answer.status === requestRate().exceededStatus) return undefined;
    const pagination = operation.pagination;
    if (pagination?.style !== "offset") return undefined;
    const limit = operation.parameters.find((p) => p.name === pagination.limitParam);
    const offset = operation.parameters.find((p) => p.name === pagination.offsetParam);
    if (!limit || !offset) return undefined;
    const out = outOfBounds({ operation, pagination, limit, offset }, query);
    if (out.length === 0) return undefined;
    if (answer.status === 400) return null;
    if (answer.status !== 200)
      return `${answer.url} answered ${answer.status} (expected 400, or 200 clamped)`;
    const items = (answer.body as Record<string, unknown> | undefined)?.[pagination.itemsField];
    if (!Array.isArray(items) || (limit.maximum !== undefined && items.length > limit.maximum))
      return `${answer.url} answered 200 with ${Array.isArray(items) ? items.length : "no"} ${pagination.itemsField} (at most ${limit.maximum})`;
    return null;
  },
});
