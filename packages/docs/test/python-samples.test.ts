// The Python samples: one for exactly the operations that gcore-python has a method for (the map in
// src/gcore-python.ts), each one valid Python whose call of that method sends the description's
// example values. The project's machines only promise Node: without python3 on PATH the checks that
// need its parser are skipped, and their name says so. The SDK is no dependency of the project, so
// that the samples run with it against the simulator is checked outside the project's tests.
import { spawnSync } from "node:child_process";
import { accessSync, constants } from "node:fs";
import { delimiter, join } from "node:path";
import { loadBundle, loadModel, pollingAdviceFor } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { baseUrl, EXAMPLE_RESELLER_TOKEN, EXAMPLE_TOKEN, pythonSample } from "../src/code-samples.js";
import { GCORE_PYTHON, type SdkMethod } from "../src/gcore-python.js";
import { exampleValue, isObject, listOperations, type Operation, tokenSchemeOf } from "../src/operations.js";

const bundle = loadBundle();
const model = loadModel();
const operations = listOperations(bundle);
const mapped = operations.flatMap((op) => {
  const sdk = GCORE_PYTHON.methods[op.operationId];
  const source = pythonSample(bundle, op);
  return sdk && source !== undefined ? [{ op, sdk, source }] : [];
});

describe("which operations have a Python sample", () => {
  it("the map names only operations of the description", () => {
    const ids = operations.map((op) => op.operationId);
    for (const id of Object.keys(GCORE_PYTHON.methods)) expect(ids).toContain(id);
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    "%s has one exactly when gcore-python has a method for it",
    (operationId, op) => {
      expect(pythonSample(bundle, op) !== undefined).toBe(GCORE_PYTHON.methods[operationId] !== undefined);
    },
  );
});

describe("the client of a Python sample", () => {
  it.each(mapped.map((m) => [m.op.operationId, m] as const))(
    "%s builds it with the example token and the documented address",
    (_, { op, source }) => {
      const { client } = GCORE_PYTHON;
      expect(source).toContain(`from ${client.module} import ${client.name}\n`);
      const token = op.reseller ? EXAMPLE_RESELLER_TOKEN : EXAMPLE_TOKEN;
      expect(source).toContain(`${client.tokenArgument}="${token}"`);
      expect(source).toContain(`${client.baseUrlArgument}="${baseUrl(bundle)}"`);
      // The SDK sends the token in one header; an operation that wants it elsewhere cannot use it.
      expect(tokenSchemeOf(bundle, op).headerName).toBe(GCORE_PYTHON.tokenHeader);
    },
  );
});

/** What python-calls.py tells of one sample. */
interface Parsed {
  name: string;
  error?: string;
  calls?: { method: string; args: unknown[]; keywords: Record<string, unknown> }[];
}
/** Starting python3 and parsing every sample take about a second; generous for a loaded machine. */
const PYTHON_TIMEOUT = 60_000;
const checker = new URL("./python-calls.py", import.meta.url).pathname;
/** Looked up on PATH, not started: starting it costs as much as the whole check. */
const python3 = (process.env.PATH ?? "").split(delimiter).some((dir) => {
  try {
    accessSync(join(dir, "python3"), constants.X_OK);
    return true;
  } catch {
    return false;
  }
});
/** A sample with its last closing parenthesis dropped: the checker must report it. */
const BROKEN = "(a sample that does not parse)";

// Every sample, and the broken one, in one python3 process.
let parsed: Map<string, Parsed> | undefined;
function parsedSamples(): Map<string, Parsed> {
  const first = mapped[0];
  if (!first) throw new Error("no operation has a Python sample");
  const samples = [
    ...mapped.map(({ op, source }) => ({ name: op.operationId, source })),
    { name: BROKEN, source: first.source.replace(/\)\s*$/m, "") },
  ];
  parsed ??= (() => {
    const done = spawnSync("python3", [checker], {
      input: JSON.stringify(samples),
      encoding: "utf8",
      timeout: PYTHON_TIMEOUT,
    });
    if (done.status !== 0) throw new Error(`python3 ${checker} failed: ${done.stderr || done.error}`);
    return new Map((JSON.parse(done.stdout) as Parsed[]).map((p) => [p.name, p]));
  })();
  return parsed;
}

/** Everything the description's examples send, by name: path parameters, required query, body. */
function examplesSent(op: Operation, sdk: SdkMethod): Record<string, unknown> {
  const sent: Record<string, unknown> = {};
  for (const p of op.parameters)
    if ((p.in === "path" && p.name !== sdk.positional) || (p.in === "query" && p.required))
      sent[p.name] = exampleValue(bundle, p);
  return { ...sent, ...(op.hasBody && isObject(op.bodyExample) ? op.bodyExample : {}) };
}

describe.skipIf(!python3)(
  python3
    ? "Python samples, read by python3's parser"
    : "Python samples, read by python3's parser: skipped, no python3 on PATH; the project's machines only promise Node",
  () => {
    it.each(mapped.map((m) => [m.op.operationId, m] as const))(
      "%s parses and calls the SDK's method with the description's example values",
      (operationId, { op, sdk }) => {
        const result = parsedSamples().get(operationId);
        expect(result?.error).toBeUndefined();
        const call = result?.calls?.find((c) => c.method === sdk.method);
        expect(call, `a call of client.${sdk.method}`).toBeDefined();
        const positional = op.parameters.find((p) => p.in === "path" && p.name === sdk.positional);
        expect(call?.args).toEqual(positional ? [exampleValue(bundle, positional)] : []);
        const { extra_query = {}, extra_body = {}, ...named } = call?.keywords ?? {};
        // What the method names is passed by name; only what it does not name goes in extra_*.
        for (const name of Object.keys(named)) expect(sdk.keywords ?? []).toContain(name);
        for (const name of Object.keys({ ...(extra_query as object), ...(extra_body as object) }))
          expect(sdk.keywords ?? []).not.toContain(name);
        expect({ ...named, ...(extra_query as object), ...(extra_body as object) }).toEqual(
          examplesSent(op, sdk),
        );
      },
      PYTHON_TIMEOUT,
    );

    it("a sample that starts a task waits for it at the spec's interval for its type", () => {
      const starting = mapped.filter(({ op }) => op.asyncTask);
      expect(starting.length).toBeGreaterThan(0);
      for (const { op } of starting) {
        const task = op.asyncTask;
        const poll = task ? GCORE_PYTHON.methods[task.pollOperationId]?.poll : undefined;
        const advice = pollingAdviceFor(model, task?.taskType);
        if (!poll || !advice.known) throw new Error(`${op.operationId}: no SDK poll or no interval to check`);
        const call = parsedSamples()
          .get(op.operationId)
          ?.calls?.find((c) => c.method === poll.method);
        expect(call?.keywords[poll.intervalArgument], op.operationId).toBe(
          advice.interval.pollIntervalSeconds,
        );
        expect(call?.args, op.operationId).toEqual([
          { expression: expect.stringMatching(`\\.${task?.tasksField}\\[0\\]$`) },
        ]);
      }
    });

    it("would report a sample that Python cannot parse", () => {
      expect(parsedSamples().get(BROKEN)?.error).toMatch(/^line \d+: /);
    });
  },
);
