// The shape of a HAR entry, as far as `verify --har` reads it (HAR 1.2 asks for more; browsers and
// recorders write more): checked by the project's one Ajv set-up, so a malformed entry is one line
// naming the field and what is allowed, never a TypeError deep in the reading. The lines say what
// a value is (null, a number), never the value: a HAR may hold a token anywhere.

import { shapeChecker } from "../shared/json-shape.js";

const text = (description: string) => ({ type: "string", description });
const number = (description: string) => ({ type: "number", description });
const headers = {
  type: "array",
  description: "an array of headers",
  items: {
    type: "object",
    description: 'an object with a "name" and a "value" string',
    required: ["name", "value"],
    properties: { name: text("a string"), value: text("a string") },
  },
};

/** What `readHar` reads of an entry; `description` is the "allowed" part of the error line. */
const ENTRY_SCHEMA = {
  type: "object",
  description: "an object (a HAR entry with request and response)",
  required: ["request", "response"],
  properties: {
    startedDateTime: text("a string (an ISO 8601 date)"),
    time: number("a number (milliseconds)"),
    request: {
      type: "object",
      description: "an object with method and url",
      required: ["method", "url"],
      properties: {
        method: text("a string (the HTTP method)"),
        url: text("a string (the request's absolute URL)"),
        headers,
      },
    },
    response: {
      type: "object",
      description: "an object with status",
      required: ["status"],
      properties: {
        status: number("a number (the HTTP status; 0 or -1 for no answer)"),
        headers,
        content: {
          type: "object",
          description: "an object (the body: text, encoding, size)",
          properties: {
            text: text('a string (the body; base64 when encoding is "base64"), or no text at all'),
            encoding: text('a string ("base64" or left out)'),
            size: number("a number (bytes)"),
          },
        },
      },
    },
  },
} as const;

/**
 * What is wrong with a HAR entry, as "<where> is <what>; allowed: <what is>", `where` a path under
 * the entry ("" for the entry itself, ".response.content.text"); undefined when it can be read.
 */
export const entryProblem = shapeChecker(ENTRY_SCHEMA);
