// Every answer against the spec: its status, content type and body (src/judge.ts), as `schema` and
// `schema.inferred` judge the suite's own answers.

import { schema as schemaCheck, schemaInferred } from "../../checks/schema.js";
import { fromCheck, rule } from "./types.js";

export const schema = rule({
  ...fromCheck(schemaCheck),
  judges: "every answer: a documented status and content type, a body valid against the spec",
  on: "answer",
  judge: ({ judged }) => (judged.must.length > 0 ? judged.must.join("\n") : null),
});

export const schemaInferredRule = rule({
  ...fromCheck(schemaInferred),
  judges: "every answer: the fields the spec infers as required (x-inferred-required)",
  on: "answer",
  judge: ({ judged }) => (judged.should.length > 0 ? judged.should.join("\n") : null),
});
