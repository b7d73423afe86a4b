// The generated samples: one curl and one TypeScript sample per operation (the Python ones are
// python-samples.test.ts's), the token always in single quotes, every TypeScript sample compiles
// against the client, and every curl and TypeScript sample works against the simulator.
import { execFile, spawnSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { promisify } from "node:util";
import { startSimulator } from "@platform-api/simulator";
import { loadBundle, loadModel, tokenScheme } from "@platform-api/spec";
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
import { GCORE_PYTHON } from "../src/gcore-python.js";
import { listOperations, tokenSchemeOf } from "../src/operations.js";
import { sampleSwaps } from "./sample-values.js";
import { brokenOp, brokenSamples, shownProblems } from "./shown-typescript.js";

// The simulator runs in this process: the samples must run asynchronously so it can answer them.
const run = promisify(execFile);
const bundle = loadBundle();
const model = loadModel();
const operations = listOperations(bundle);
/** What sample-runner.mjs tells of one sample. */
interface SampleRun {
  file: string;
  stdout: string;
  stderr: string;
  error?: string;
}
const runner = new URL("./sample-runner.mjs", import.meta.url).pathname;
/** Starts each sample's output in the curl batch; no sample prints it. */
const MARK = "@@sample ";
/** For a batch of every sample on a loaded machine: generous, never a measure of speed. */
const BATCH_TIMEOUT = 180_000;

describe("samples in the reference", () => {
  const withSamples = listOperations(withCodeSamples(bundle));

  it("covers every operation of the description", () => {
    expect(operations.map((op) => op.operationId)).toEqual(model.operations.map((op) => op.operationId));
    expect(withSamples.map((op) => op.operationId)).toEqual(model.operations.map((op) => op.operationId));
  });

  it.each(withSamples.map((op) => [op.operationId, op] as const))(
    "%s has a curl and a TypeScript sample, and a Python one where gcore-python has a method",
    (operationId, op) => {
      const samples = op.node["x-codeSamples"] as { lang: string; label: string; source: string }[];
      const python = GCORE_PYTHON.methods[operationId] ? ["Python"] : [];
      expect(samples.map((s) => s.lang)).toEqual(["Shell", "TypeScript", ...python]);
      expect(samples[0]?.source).toContain(`curl`);
      expect(samples[1]?.source).toContain("= createClient(");
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
      const { tokenPrefix } = tokenScheme(model, op.security[0] ?? "");
      expect(source).toContain(`-H '${tokenSchemeOf(bundle, op).headerName}: ${tokenPrefix}${token}'`);
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
  // Checked in one program with the guides' blocks (shown-typescript.ts).
  it.each(operations.map((op) => [op.operationId] as const))(
    "%s compiles against @platform-api/client (strict, NodeNext)",
    (operationId) => {
      expect(shownProblems().get(operationId) ?? []).toEqual([]);
    },
  );

  it("would fail the check if the client and a sample disagreed", () => {
    if (!brokenOp) throw new Error("no operation with a path parameter and a numeric body field");
    const source = typescriptSample(bundle, brokenOp);
    expect(brokenSamples).toHaveLength(3);
    for (const b of brokenSamples) expect(b.code, b.name).not.toBe(source);
    expect(shownProblems().get("(program)") ?? []).toEqual([]);
    for (const b of brokenSamples) expect.soft(shownProblems().get(b.name), b.name).toBeDefined();
  });
});
describe("samples run against the simulator", () => {
  let sim: Awaited<ReturnType<typeof startSimulator>>;
  /** Example values of resources only the simulator's answers give, and the simulator's own. */
  let swaps: [example: string, value: string][] = [];
  const runDir = new URL("../node_modules/.cache/run-samples/", import.meta.url).pathname;

  beforeAll(async () => {
    sim = await startSimulator({ port: 0, timeScale: 0.0001, rateLimit: 0 });
    swaps = await sampleSwaps(sim, bundle, model, operations);
    rmSync(runDir, { recursive: true, force: true });
    mkdirSync(runDir, { recursive: true });
    writeFileSync(join(runDir, "package.json"), JSON.stringify({ type: "module" }));
  });
  afterAll(async () => {
    await sim?.close();
  });

  const local = (source: string) =>
    swaps.reduce(
      (text, [example, value]) => text.replaceAll(example, value),
      source
        .replaceAll(baseUrl(bundle), sim.url)
        .replaceAll(EXAMPLE_TOKEN, sim.apiKey)
        .replaceAll(EXAMPLE_RESELLER_TOKEN, sim.resellerApiKey),
    );

  // Every curl sample in one shell, in order, each one's output (its status, or whatever it wrote
  // to stderr) after a line that names it: one shell instead of one per sample.
  let curlRun: Promise<Map<string, string>> | undefined;
  const curlOutputs = () => {
    curlRun ??= (async () => {
      const script = operations
        .map(
          (op) =>
            `echo '${MARK}${op.operationId}'\n${local(curlSample(bundle, op))} \\\n  -sS -o /dev/null -w '%{http_code}' 2>&1`,
        )
        .concat("true")
        .join("\n");
      const { stdout } = await run("sh", ["-c", script], { encoding: "utf8", timeout: BATCH_TIMEOUT });
      return sections(stdout);
    })();
    return curlRun;
  };

  // Every TypeScript sample in one Node process (sample-runner.mjs), in order: the client is loaded
  // once, not once per sample.
  let tsRun: Promise<{ results: Map<string, SampleRun>; stderr: string }> | undefined;
  const tsOutputs = () => {
    tsRun ??= (async () => {
      for (const op of operations) {
        const js = ts.transpileModule(local(typescriptSample(bundle, op)), {
          compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 },
        }).outputText;
        writeFileSync(join(runDir, `${op.operationId}.js`), js);
      }
      const files = operations.map((op) => join(runDir, `${op.operationId}.js`));
      // Each sample's line is kept even if the runner dies: a sample after it then has none.
      const { stdout, stderr } = await run(process.execPath, [runner, ...files], {
        encoding: "utf8",
        timeout: BATCH_TIMEOUT,
        env: {
          PATH: process.env.PATH,
          GCORE_BASE_URL: sim.url,
          GCORE_API_KEY: sim.apiKey,
          GCORE_RESELLER_API_KEY: sim.resellerApiKey,
        },
      }).catch((error: { stdout?: string; stderr?: string; message: string }) => ({
        stdout: error.stdout ?? "",
        stderr: `${error.stderr ?? ""}\nthe runner stopped: ${error.message}`,
      }));
      const lines = stdout.split("\n").filter((line) => line.trim() !== "");
      const results = new Map(lines.map((line) => JSON.parse(line) as SampleRun).map((r) => [r.file, r]));
      return { results, stderr };
    })();
    return tsRun;
  };

  it.each(operations.map((op) => [op.operationId, op] as const))(
    "curl: %s answers 2xx",
    async (_, op) => {
      const output = (await curlOutputs()).get(op.operationId);
      expect(output).toMatch(/^2\d\d$/);
    },
    BATCH_TIMEOUT,
  );

  it.each(operations.map((op) => [op.operationId, op] as const))(
    "TypeScript: %s runs to completion",
    async (_, op) => {
      const { results } = await tsOutputs();
      const result = results.get(join(runDir, `${op.operationId}.js`));
      expect(result, "the runner ran it to its end (see the stderr test if it stopped)").toBeDefined();
      expect(result?.error).toBeUndefined();
      expect(result?.stderr).toBe("");
      expect(result?.stdout.trim().length).toBeGreaterThan(0);
    },
    BATCH_TIMEOUT,
  );

  it("ran the TypeScript samples with nothing written to stderr outside them", async () => {
    expect((await tsOutputs()).stderr).toBe("");
  });
});

/** The output after each `${MARK}name` line, by name, trimmed. */
function sections(stdout: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const part of stdout.split(MARK).slice(1)) {
    const [name = "", ...rest] = part.split("\n");
    out.set(name, rest.join("\n").trim());
  }
  return out;
}
