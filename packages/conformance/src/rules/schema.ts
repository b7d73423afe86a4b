// Every answer against the spec (src/http/answer.ts): `schema` fails on what breaks what the seed
// states (an undocumented status or content type, a body off its schema with the spec's inferences
// optional, an answer that breaks HTTP itself); `schema.inferred` (a `should`) on what breaks only
// an inference (x-inferred-required).

import { answersCarryInferences } from "../facts/spec.js";
import { rule } from "./types.js";

export const schema = rule({
  id: "schema",
  severity: "must",
  refuses: false,
  perOperation: true,
  appliesTo: "every operation (every answer)",
  judges: "every answer: a documented status and content type, a body valid against the spec",
  on: "answer",
  applies: () => true,
  title: (operation) =>
    `every answer of ${operation.operationId} has a documented status and content type, and a body valid against the spec`,
  needs: () => [],
  unjudged: (operation) => `no answer of ${operation.operationId} in this run (what calls it was skipped)`,
  judge: ({ judged }) => (judged.must.length > 0 ? judged.must.join("\n") : null),
});

export const schemaInferred = rule({
  id: "schema.inferred",
  severity: "should",
  refuses: false,
  perOperation: true,
  appliesTo: "every operation whose answers' schemas list x-inferred-required fields",
  judges: "every answer: the fields the spec infers as required (x-inferred-required)",
  on: "answer",
  applies: (operation) => answersCarryInferences(operation),
  title: (operation) => `every answer of ${operation.operationId} has the fields the spec infers as required`,
  needs: () => [],
  unjudged: (operation) => `no answer of ${operation.operationId} in this run (what calls it was skipped)`,
  judge: ({ judged }) => (judged.should.length > 0 ? judged.should.join("\n") : null),
});
