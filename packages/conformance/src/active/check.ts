// The scenarios' checks. A failed check throws a Deviation, whose message is the scenario's reason
// in the report. `expectStatus` also types the answer: past it, the body is what the operation
// documents for that status.

import { findOperation, responseFor } from "@platform-api/spec";
import type { StatusOf } from "../facts/api.js";
import { specModel } from "../facts/spec.js";
import type { Answer, Answered } from "../http/http.js";
import type { Evidence } from "../shared/context.js";

export class Deviation extends Error {
  override name = "Deviation";
  constructor(
    message: string,
    /** The answers it is about: the result's `failedOn`, what is sent again before it is called a failure. */
    readonly answers: Answer[] = [],
    /** Exchanges it is about that no answer in hand stands for (the judge's, a driver's). */
    readonly evidence: Evidence[] = [],
  ) {
    super(message);
  }
}

/** Fails the scenario with `message`, about `answers` (its evidence's `failedOn`) when given. */
export function check(condition: unknown, message: string, ...answers: Answer[]): asserts condition {
  if (!condition) throw new Deviation(message, answers);
}

/** Whether the answer has one of the statuses; if so, its body is typed as the status documents. */
export function hasStatus<Op, S extends StatusOf<Op>>(
  answer: Answer<Op>,
  ...allowed: S[]
): answer is Answered<Op, S> {
  return (allowed as number[]).includes(answer.status);
}

/**
 * The answer has one of the allowed statuses; a success the operation documents with a JSON body
 * came with one (so the typed body is there to read).
 */
export function expectStatus<Op, S extends StatusOf<Op>>(
  answer: Answer<Op>,
  ...allowed: S[]
): asserts answer is Answered<Op, S> {
  check(
    hasStatus(answer, ...allowed),
    `${answer.method} ${answer.url} answered ${answer.status}; expected ${allowed.join(" or ")}${
      answer.text ? ` (body: ${answer.text.slice(0, 200)})` : ""
    }`,
    answer,
  );
  if (answer.status < 200 || answer.status > 299) return;
  const operation = findOperation(specModel(), answer.method, answer.template);
  const documented = operation && responseFor(operation, answer.status);
  const json = documented?.content.some((m) => m.contentType === "application/json");
  check(
    !json || answer.body !== undefined,
    `${answer.method} ${answer.url} answered ${answer.status} without the JSON body the spec documents${
      answer.text ? ` (body: ${answer.text.slice(0, 200)})` : ""
    }`,
    answer,
  );
}
