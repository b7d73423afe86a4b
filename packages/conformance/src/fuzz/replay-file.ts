// The findings a `fuzz --replay` sends again, read from a report.json that may come from anyone:
// bounded in bytes (a regular file only) and depth, each finding checked against the spec before
// anything is sent. A request must be one of the spec's operations, with that operation's method,
// path template and path parameters and the key it is called with; what is sent is rebuilt from
// those checked parts, never taken whole from the file. A file that fails any of it is refused
// (exit 2), naming the entry and saying what is allowed, never quoting what it holds.

import { type OperationModel, operationById } from "@platform-api/spec";
import { keyFor } from "../facts/operations.js";
import { specModel } from "../facts/spec.js";
import { plannedResults } from "../judge/judge.js";
import { readBoundedFile } from "../shared/bounded-file.js";
import type { Finding, FuzzRequest } from "../shared/finding.js";
import { shapeChecker } from "../shared/json-shape.js";
import { UsageError } from "../shared/usage-error.js";
import { FUZZ_CHECKS, fuzzResultId } from "./checks.js";
import { PHASES } from "./request.js";

/** A report.json larger than this is refused unread: a fuzz run's report is far smaller (its findings are one per result). */
export const MAX_REPLAY_BYTES = 64 * 1024 * 1024;
/** How deep a request body may nest: the spec's bodies nest a few levels; deeper is no request a run made. */
export const MAX_BODY_DEPTH = 32;
/** The longest path parameter value or query name or value taken (a run's coverage sends 1,000 characters). */
const MAX_VALUE_LENGTH = 4096;
/** The most query pairs in one request. */
const MAX_QUERY_PAIRS = 100;

const text = (description: string, maxLength = MAX_VALUE_LENGTH) => ({
  type: "string",
  maxLength,
  description,
});

/** What a finding must be to be sent again; `description` is a line's "allowed" part. */
const FINDING_SCHEMA = {
  type: "object",
  description: "an object (a finding of a fuzz run's report.json)",
  required: ["id", "severity", "phase", "seed", "request"],
  properties: {
    id: text("a string (the result's id)", 200),
    severity: { enum: ["must", "should"], description: '"must" or "should"' },
    phase: { enum: [...PHASES], description: `one of ${PHASES.join(", ")}` },
    seed: { type: "integer", description: "a whole number (the run's seed)" },
    request: {
      type: "object",
      description:
        "an object with operationId, method, path, params, fromRun, query, auth and, for some, body and unknownParameter",
      required: ["operationId", "method", "path", "params", "fromRun", "query", "auth"],
      additionalProperties: false,
      properties: {
        operationId: text("a string (an operationId of the spec)", 100),
        method: text("a string (the operation's method)", 10),
        path: text("a string (the operation's path template)", 300),
        params: {
          type: "object",
          description: "an object of path parameter values (strings)",
          additionalProperties: text(`a string of at most ${MAX_VALUE_LENGTH} characters`),
        },
        fromRun: {
          type: "array",
          description: "an array of path parameter names",
          maxItems: 10,
          items: text("a string (a path parameter's name)", 100),
        },
        query: {
          type: "array",
          description: `an array of at most ${MAX_QUERY_PAIRS} [name, value] pairs of strings`,
          maxItems: MAX_QUERY_PAIRS,
          items: {
            type: "array",
            description: "a [name, value] pair of strings",
            minItems: 2,
            maxItems: 2,
            items: text(`a string of at most ${MAX_VALUE_LENGTH} characters`),
          },
        },
        body: { description: "any JSON value (the request body)" },
        auth: {
          enum: ["client", "reseller"],
          description: '"client" or "reseller" (which of the run\'s keys)',
        },
        unknownParameter: text("a string (a path parameter's name)", 100),
      },
    },
  },
} as const;

const findingProblem = shapeChecker(FINDING_SCHEMA);

/** How deep a JSON value nests, walked without recursion (a hostile body may nest 200,000 deep). */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop() as [unknown, number];
    if (depth > deepest) deepest = depth;
    if (deepest > MAX_BODY_DEPTH) return deepest;
    if (typeof node === "object" && node !== null)
      for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** Every result id a finding may name: the registry's and fuzz's own. */
function resultIds(): Set<string> {
  const operations = specModel().operations.map((o) => o.operationId);
  return new Set([
    ...plannedResults().map((r) => r.id),
    ...FUZZ_CHECKS.flatMap((check) => operations.map((o) => fuzzResultId(check, o))),
  ]);
}

/** What is wrong with a shape-checked finding against the spec, or undefined. */
function specProblem(finding: Finding, ids: Set<string>): string | undefined {
  const request = finding.request;
  let operation: OperationModel;
  try {
    operation = operationById(specModel(), request.operationId);
  } catch {
    return `.request.operationId names no operation of the spec; allowed: ${specModel()
      .operations.map((o) => o.operationId)
      .join(", ")}`;
  }
  if (finding.operationId !== undefined && finding.operationId !== operation.operationId)
    return ".operationId is not its request's operationId; allowed: the same operationId";
  if (!ids.has(finding.id))
    return ".id names no result of the suite; allowed: a result id such as schema.listRegions";
  const method = operation.method.toUpperCase();
  if (request.method !== method)
    return `.request.method is not ${operation.operationId}'s; allowed: ${method}`;
  if (request.path !== operation.path)
    return `.request.path is not ${operation.operationId}'s; allowed: ${operation.path}`;
  const names = operation.parameters.filter((p) => p.in === "path").map((p) => p.name);
  const given = Object.keys(request.params);
  if (given.length !== names.length || !names.every((n) => Object.hasOwn(request.params, n)))
    return `.request.params does not name ${operation.operationId}'s path parameters; allowed: ${names.length === 0 ? "none ({})" : names.join(", ")}`;
  if (!request.fromRun.every((n) => names.includes(n)))
    return `.request.fromRun names a parameter ${operation.operationId} has not; allowed: ${names.join(", ") || "none"}`;
  const uuids = operation.parameters.filter((p) => p.in === "path" && p.format === "uuid").map((p) => p.name);
  if (request.unknownParameter !== undefined && !uuids.includes(request.unknownParameter))
    return `.request.unknownParameter is no UUID path parameter of ${operation.operationId}; allowed: ${uuids.join(", ") || "none"}`;
  if (request.auth !== keyFor(operation))
    return `.request.auth is not the key ${operation.operationId} is called with; allowed: "${keyFor(operation)}"`;
  if (request.body !== undefined && !operation.requestBody)
    return `.request.body is given, but ${operation.operationId} takes none; allowed: no body`;
  if (request.body !== undefined && depthOf(request.body) > MAX_BODY_DEPTH)
    return `.request.body nests deeper than ${MAX_BODY_DEPTH} levels; allowed: at most ${MAX_BODY_DEPTH}`;
  return undefined;
}

/** The findings of a fuzz run's report.json, each checked and rebuilt; UsageError naming the first that is not one. */
export function readReplayFile(file: string): Finding[] {
  const text = readBoundedFile(file, "--replay", MAX_REPLAY_BYTES, "the report.json of a fuzz run");
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new UsageError(`--replay ${file}: not JSON; give the report.json of a fuzz run.`);
  }
  const findings = (parsed as { fuzz?: { findings?: unknown } } | null)?.fuzz?.findings;
  if (!Array.isArray(findings))
    throw new UsageError(`--replay ${file} holds no fuzz findings: give the report.json of a fuzz run.`);
  if (findings.length === 0)
    throw new UsageError(
      `--replay ${file}: its fuzz run found nothing (fuzz.findings is empty), so there is nothing to send again.`,
    );
  const ids = resultIds();
  return findings.map((raw, index) => {
    const problem = findingProblem(raw) ?? specProblem(raw as Finding, ids);
    if (problem !== undefined) throw new UsageError(`--replay ${file}: fuzz.findings[${index}]${problem}.`);
    return rebuilt(raw as Finding);
  });
}

/** The finding made anew from its checked parts only (no field the file added rides along). */
function rebuilt(finding: Finding): Finding {
  const r = finding.request;
  const request: FuzzRequest = {
    operationId: r.operationId,
    method: r.method,
    path: r.path,
    params: Object.fromEntries(Object.entries(r.params).map(([k, v]) => [k, String(v)])),
    fromRun: [...r.fromRun],
    query: r.query.map(([name, value]) => [name, value] as [string, string]),
    ...(r.body === undefined ? {} : { body: structuredClone(r.body) }),
    auth: r.auth,
    ...(r.unknownParameter === undefined ? {} : { unknownParameter: r.unknownParameter }),
  };
  return {
    id: finding.id,
    check: typeof finding.check === "string" ? finding.check.slice(0, 200) : finding.id,
    operationId: r.operationId,
    severity: finding.severity,
    phase: finding.phase,
    seed: finding.seed,
    problem: typeof finding.problem === "string" ? finding.problem.slice(0, 2000) : "",
    status: typeof finding.status === "number" ? finding.status : null,
    request,
    curl: "",
  };
}
