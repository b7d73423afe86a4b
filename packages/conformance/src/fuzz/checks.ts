// What generated requests add to the one judge's rules (src/rules/): checks that need to know
// what the spec says of the request itself (src/fuzz/classify.ts), so they judge fuzz's own
// exchanges, whose requests are known whole (body included). Each is a small named check applied to
// every operation; its results are `<check id>.<operationId>`, as the registry's are.

import type { OperationModel } from "@platform-api/spec";
import type { Severity } from "../shared/context.js";
import type { FuzzRequest } from "../shared/finding.js";
import type { Classification } from "./classify.js";

export interface CheckEvent {
  operation: OperationModel;
  request: FuzzRequest;
  classification: Classification;
  /** The request's last answer's status (after the one retry a 5xx gets), null when none came. */
  status: number | null;
  /** The answer's text (redacted), or why no answer came. */
  text: string;
  /** How many times the request was sent (2: a 5xx was retried once). */
  sent: number;
}

export interface FuzzCheck {
  id: string;
  severity: Severity;
  /** What it judges, in words (README, report titles). */
  judges: string;
  /** A problem, null when the exchange holds to it, undefined when it does not apply. */
  judge(event: CheckEvent): string | null | undefined;
}

const success = (status: number | null) => status !== null && status >= 200 && status < 300;

/**
 * Limit and offset of an offset list outside their bounds may be clamped rather than refused
 * (pagination.offset.limit-bounds judges the page): such a value alone is no forbidden request
 * a 2xx would break.
 */
function clampable(operation: OperationModel, problem: { where: string; problem: string }): boolean {
  const p = operation.pagination;
  if (p?.style !== "offset" || problem.where !== "query") return false;
  return [p.limitParam, p.offsetParam].some((name) => problem.problem.startsWith(`query parameter ${name}=`));
}

export const FUZZ_CHECKS: readonly FuzzCheck[] = [
  {
    id: "fuzz.no-server-error",
    severity: "must",
    judges:
      "no request gets a 5xx, or no answer: the spec calls a 500 temporary, so a GET or PUT is retried once after its advice; the retry's 5xx is the finding",
    judge({ status, sent, text }) {
      if (status === null) return `no answer (${text})`;
      if (status < 500) return null;
      return sent > 1 ? `answered ${status}, and ${status} again when retried` : `answered ${status}`;
    },
  },
  {
    id: "fuzz.forbidden-body-refused",
    severity: "must",
    judges:
      "a body the spec forbids (a missing required field, a wrong type, a value outside an enum) is not accepted with a 2xx (the seed: 400, the request body has errors)",
    judge({ classification, status }) {
      const body = classification.forbidden.filter((f) => f.where === "body");
      if (body.length === 0) return undefined;
      return success(status)
        ? `accepted with ${status} although ${body.map((f) => f.problem).join("; ")}`
        : null;
    },
  },
  {
    id: "fuzz.forbidden-parameter-refused",
    severity: "should",
    judges:
      "a path or query value the spec forbids (out of bounds, outside an enum, the wrong type) is not accepted with a 2xx (should: the seed documents 400 for bodies only)",
    judge({ operation, classification, status }) {
      const parameters = classification.forbidden.filter((f) => f.where !== "body");
      if (parameters.length === 0 || classification.forbidden.some((f) => f.where === "body"))
        return undefined;
      if (parameters.every((f) => clampable(operation, f))) return undefined;
      return success(status)
        ? `accepted with ${status} although ${parameters.map((f) => f.problem).join("; ")}`
        : null;
    },
  },
  {
    id: "fuzz.allowed-accepted",
    severity: "must",
    judges:
      "a request the spec allows whole (nothing in it left open) is not refused with a 400 naming a parameter whose value the spec lists (an enum member, a list's paging within bounds)",
    judge({ classification, status, text }) {
      if (!classification.allowed) return undefined;
      if (status !== 400) return null;
      const named = classification.allowedNames.filter((name) =>
        new RegExp(`(^|[^A-Za-z0-9_])${name.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}([^A-Za-z0-9_]|$)`).test(
          text,
        ),
      );
      return named.length > 0
        ? `refused with 400 naming ${named.join(", ")}, which the spec allows as sent`
        : null;
    },
  },
];

export const fuzzResultId = (check: FuzzCheck, operationId: string) => `${check.id}.${operationId}`;
