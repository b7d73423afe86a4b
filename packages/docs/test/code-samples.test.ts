// The generated samples: one curl and one TypeScript sample per operation, the token always in
// single quotes, every TypeScript sample compiles against the client, and every sample works
// against the simulator.
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startSimulator } from "@platform-api/simulator";
import {
  asyncTaskOperations,
  loadBundle,
  loadModel,
  type ParameterModel,
  requireParameter,
  taskPollingOf,
} from "@platform-api/spec";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  baseUrl,
  curlSample,
  EXAMPLE_RESELLER_TOKEN,
  EXAMPLE_TOKEN,
  shellQuote,
  typescriptSample,
  withCodeSamples,
} from "../src/code-samples.js";
import {
  exampleValue,
  isObject,
  type Json,
  listOperations,
  type Operation,
  tokenHeader,
} from "../src/operations.js";
import { typecheck } from "./typescript.js";

// The simulator runs in this process: the samples must run asynchronously so it can answer them.
const run = promisify(execFile);
const bundle = loadBundle();
const model = loadModel();
const operations = listOperations(bundle);
const byId = (operationId: string): Operation => {
  const op = operations.find((o) => o.operationId === operationId);
  if (!op) throw new Error(`no operation ${operationId}`);
  return op;
};
const pathParameter = (op: Operation): ParameterModel => {
  const found = op.parameters.find((p) => p.in === "path");
  if (!found) throw new Error(`${op.operationId} has no path parameter`);
  return found;
};
/** The operation's path with every parameter at its example value, as the samples call it. */
const examplePath = (op: Operation) =>
  op.path.replace(/\{([^}]+)\}/g, (_, name: string) =>
    encodeURIComponent(String(exampleValue(bundle, requireParameter(op, name, "path")))),
  );
const fieldsOf = (value: unknown): Json => (isObject(value) ? value : {});

describe("samples in the reference", () => {
  const withSamples = listOperations(withCodeSamples(bundle));

  it("covers every operation of the description", () => {
    expect(operations.map((op) => op.operationId)).toEqual(model.operations.map((op) => op.operationId));
    expect(withSamples.map((op) => op.operationId)).toEqual(model.operations.map((op) => op.operationId));
  });

  it.each(withSamples.map((op) => [op.operationId, op] as const))(
    "%s has a curl and a TypeScript sample",
    (_, op) => {
      const samples = op.node["x-codeSamples"] as { lang: string; label: string; source: string }[];
      expect(samples.map((s) => s.lang)).toEqual(["Shell", "TypeScript"]);
      expect(samples[0]?.source).toContain(`curl`);
      expect(samples[1]?.source).toContain(`client.`);
      expect(samples[1]?.source).toContain(JSON.stringify(op.path));
    },
  );

  it("leaves the bundle it was given unchanged", () => {
    expect(JSON.stringify(bundle)).not.toContain("x-codeSamples");
  });
});

describe("curl samples", () => {
  it.each(operations.map((op) => [op.operationId, op] as const))(
    "%s keeps the token, with its $, inside single quotes",
    (_, op) => {
      const source = curlSample(bundle, op);
      const token = op.reseller ? EXAMPLE_RESELLER_TOKEN : EXAMPLE_TOKEN;
      expect(token).toContain("$");
      expect(source).toContain(`-H '${tokenHeader(bundle, op)}: APIKey ${token}'`);
      expect(
        source.split("\n").filter((l) => l.includes("$") && !l.startsWith("#") && !l.includes("'")),
      ).toEqual([]);
    },
  );

  it("quotes words so that a POSIX shell reads them back unchanged", () => {
    for (const word of ["1234$abc", "it's", "a $(b) `c` \\d", '{"a": "x\'y"}']) {
      const printed = spawnSync("sh", ["-c", `printf %s ${shellQuote(word)}`], { encoding: "utf8" });
      expect(printed.stdout).toBe(word);
    }
  });

  it("send the request body of bodied operations as JSON", () => {
    const bodied = operations.filter((op) => op.hasBody);
    expect(bodied.length).toBeGreaterThan(0);
    for (const op of bodied) {
      const source = curlSample(bundle, op);
      expect(source).toContain(`-X ${op.method.toUpperCase()}`);
      expect(source).toContain("-H 'Content-Type: application/json'");
      const body = /--data '([\s\S]*)'$/.exec(source)?.[1];
      expect(JSON.parse(body ?? ""), op.operationId).toEqual(op.bodyExample ?? {});
    }
  });
});

describe("TypeScript samples", () => {
  it("compile against @platform-api/client (strict, NodeNext)", () => {
    const problems = typecheck(
      operations.map((op) => ({ name: op.operationId, code: typescriptSample(bundle, op) })),
      "reference-samples",
    );
    expect(Object.fromEntries(problems)).toEqual({});
  });

  it("would fail the check if the client and a sample disagreed", () => {
    // An operation with a path parameter and a JSON body with a number in it.
    const op = operations.find(
      (o) =>
        o.parameters.some((p) => p.in === "path") &&
        Object.values(fieldsOf(o.bodyExample)).some((v) => typeof v === "number"),
    );
    if (!op) throw new Error("no operation with a path parameter and a numeric body field");
    const source = typescriptSample(bundle, op);
    const parameter = pathParameter(op).name;
    const [field, value] =
      Object.entries(fieldsOf(op.bodyExample)).find(([, v]) => typeof v === "number") ?? [];
    const broken = [
      {
        name: "renamed path",
        code: source.replaceAll(JSON.stringify(op.path), JSON.stringify(`${op.path}s`)),
      },
      { name: "renamed parameter", code: source.replace(`${parameter}: `, `${parameter}_renamed: `) },
      { name: "wrong body type", code: source.replace(`${field}: ${value},`, `${field}: "${value}",`) },
    ];
    for (const b of broken) expect(b.code).not.toBe(source);
    const problems = typecheck(broken, "broken-samples");
    expect([...problems.keys()].sort()).toEqual(broken.map((b) => b.name).sort());
  });
});

describe("samples run against the simulator", () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let taskId = "";
  const getTask = byId(taskPollingOf(model).operationId);
  const exampleTaskId = () => String(exampleValue(bundle, pathParameter(getTask)));
  const runDir = new URL("../node_modules/.cache/run-samples/", import.meta.url).pathname;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, timeScale: 0.0001, rateLimit: 0 });
    // getTask's sample names the description's example task: point it at a task that exists here,
    // started by an asynchronous operation with its example request.
    const [starter] = asyncTaskOperations(model);
    if (!starter?.asyncTask) throw new Error("the description has no operation that starts a task");
    const op = byId(starter.operationId);
    const created = await fetch(`${sim.url}${examplePath(op)}`, {
      method: op.method.toUpperCase(),
      headers: { [tokenHeader(bundle, op)]: `APIKey ${sim.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify(op.bodyExample ?? {}),
    });
    const answer: unknown = await created.json();
    const tasks = fieldsOf(answer)[starter.asyncTask.tasksField];
    taskId = Array.isArray(tasks) ? String(tasks[0] ?? "") : "";
    expect(taskId, JSON.stringify(answer)).not.toBe("");
    rmSync(runDir, { recursive: true, force: true });
    mkdirSync(runDir, { recursive: true });
    writeFileSync(join(runDir, "package.json"), JSON.stringify({ type: "module" }));
  });
  afterAll(async () => {
    await sim?.close();
  });

  const local = (source: string) =>
    source
      .replaceAll(baseUrl(bundle), sim.url)
      .replaceAll(EXAMPLE_TOKEN, sim.apiKey)
      .replaceAll(EXAMPLE_RESELLER_TOKEN, sim.resellerApiKey)
      .replaceAll(exampleTaskId(), taskId);

  it.each(operations.map((op) => [op.operationId, op] as const))("curl: %s answers 2xx", async (_, op) => {
    const command = `${local(curlSample(bundle, op))} \\\n  -sS -o /dev/null -w '%{http_code}'`;
    const { stdout, stderr } = await run("sh", ["-c", command], { encoding: "utf8", timeout: 60_000 });
    expect(stderr).toBe("");
    expect(stdout).toMatch(/^2\d\d$/);
  });

  it.each(operations.map((op) => [op.operationId, op] as const))(
    "TypeScript: %s runs to completion",
    async (_, op) => {
      const source = local(typescriptSample(bundle, op));
      const js = ts.transpileModule(source, {
        compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
      }).outputText;
      const file = join(runDir, `${op.operationId}.js`);
      writeFileSync(file, js);
      // Rejects (failing the test) when the sample exits with an error.
      const { stdout, stderr } = await run(process.execPath, [file], {
        encoding: "utf8",
        timeout: 60_000,
        env: {
          PATH: process.env.PATH,
          GCORE_BASE_URL: sim.url,
          GCORE_API_KEY: sim.apiKey,
          GCORE_RESELLER_API_KEY: sim.resellerApiKey,
        },
      });
      expect(stderr).toBe("");
      expect(stdout.trim().length).toBeGreaterThan(0);
    },
  );
});
