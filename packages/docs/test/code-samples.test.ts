// The generated samples: one curl and one TypeScript sample per operation, the token always in
// single quotes, every TypeScript sample compiles against the client, and every sample works
// against the simulator.
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startSimulator } from "@platform-api/simulator";
import { loadBundle } from "@platform-api/spec";
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
import { exampleValue, listOperations, type Operation } from "../src/operations.js";
import { typecheck } from "./typescript.js";

// The simulator runs in this process: the samples must run asynchronously so it can answer them.
const run = promisify(execFile);
const bundle = loadBundle();
const operations = listOperations(bundle);

describe("samples in the reference", () => {
  const withSamples = listOperations(withCodeSamples(bundle));

  it("covers all 13 operations of the description", () => {
    expect(operations.map((op) => op.operationId)).toHaveLength(13);
    expect(withSamples).toHaveLength(operations.length);
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
      expect(source).toContain(`-H 'Authorization: APIKey ${token}'`);
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
    const createVolume = operations.find((op) => op.operationId === "createVolume") as Operation;
    const source = curlSample(bundle, createVolume);
    expect(source).toContain("-X POST");
    expect(source).toContain("-H 'Content-Type: application/json'");
    const body = /--data '([\s\S]*)'$/.exec(source)?.[1];
    expect(JSON.parse(body ?? "")).toEqual(createVolume.bodyExample);
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
    const createVolume = operations.find((op) => op.operationId === "createVolume") as Operation;
    const source = typescriptSample(bundle, createVolume);
    const broken = [
      { name: "renamed path", code: source.replaceAll("/cloud/v1/volumes/", "/cloud/v1/volume/") },
      { name: "renamed parameter", code: source.replace("region_id: 76", "regionId: 76") },
      { name: "wrong body type", code: source.replace("size: 10", 'size: "10"') },
    ];
    for (const b of broken) expect(b.code).not.toBe(source);
    const problems = typecheck(broken, "broken-samples");
    expect([...problems.keys()].sort()).toEqual(broken.map((b) => b.name).sort());
  });
});

describe("samples run against the simulator", () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  let taskId = "";
  const exampleTaskId = () => {
    const getTask = operations.find((op) => op.operationId === "getTask") as Operation;
    return String(
      exampleValue(bundle, getTask.parameters.find((p) => p.name === "task_id") ?? { name: "", in: "path" }),
    );
  };
  const runDir = new URL("../node_modules/.cache/run-samples/", import.meta.url).pathname;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, timeScale: 0.0001, rateLimit: 0 });
    // getTask's sample names the description's example task: point it at a task that exists here.
    const created = await fetch(`${sim.url}/cloud/v1/volumes/1/76`, {
      method: "POST",
      headers: { Authorization: `APIKey ${sim.apiKey}`, "Content-Type": "application/json" },
      body: JSON.stringify({ name: "samples", source: "new-volume", type_name: "standard", size: 1 }),
    });
    taskId = ((await created.json()) as { tasks: string[] }).tasks[0] ?? "";
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
