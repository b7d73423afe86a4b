// Every answer judged against the spec: its status documented for its operation, its content type
// documented for that status, its body valid against the schema. Judged twice: against what the
// seed states (the spec's inferred-required fields optional) for `must`, and with the inferences
// too for `should`, so an answer that only leaves out an inferred field is a warning, not a failure.
// What the spec leaves unspecified (open schemas, x-unspecified) is open in the schemas: unasserted.

import { findOperation } from "@platform-api/spec";
import type { Evidence, JudgedExchange } from "./context.js";
import type { Answer } from "./http.js";
import { type Inferred, specModel, specValidator } from "./spec.js";

/** The judgement of one answer; undefined for a call of no operation of the spec (none is made). */
export function judgeAnswer(answer: Answer, evidence: Evidence): JudgedExchange | undefined {
  const operation = findOperation(specModel(), answer.method, answer.template);
  if (!operation) return undefined;
  const problems = (inferred: Inferred) => {
    const errors = specValidator(inferred).validateResponse({
      method: answer.method,
      path: answer.template,
      status: answer.status,
      contentType: answer.contentType,
      body: answer.body,
      hasBody: answer.text !== "",
    });
    if (answer.text !== "" && answer.body === undefined && /json/.test(answer.contentType ?? ""))
      errors.push("the body is not valid JSON");
    return errors;
  };
  const must = problems("optional");
  const should = problems("required").filter((p) => !must.includes(p));
  const at = `${answer.method} ${evidence.path} → ${answer.status}`;
  return {
    operationId: operation.operationId,
    evidence,
    must: must.map((p) => `${at}: ${p}`),
    should: should.map((p) => `${at}: ${p}`),
  };
}
