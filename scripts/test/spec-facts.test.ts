// One source of truth, proven end to end: a spec that states other facts (request rate, the offset
// lists' limit bound and default, a polling interval and typical duration, an enum value) is
// bundled, generated and built with no code change, and the client, the simulator and the
// conformance suite, as built, all follow it. A package that kept its own copy of one of these
// facts fails here.
//
// Only the spec is copied, bundled and generated again: the other packages read the spec at run time
// (its bundle, its model, its generated runtime model), so their built code is used as it is, in a
// copy of each package whose dependencies are linked to what this repository installed and whose
// @platform-api dependencies are linked to the copies. Nothing is installed. (turbo.json builds
// those packages before the root's test:scripts.) The edits change no source of the spec, so its
// build here would emit this repository's lib/ again but for the generated modules: lib/ is copied
// and only what the generator wrote is compiled (two whole builds were most of this file's CPU).
// Of the generated modules, only those that are data (the model, its runtime view, the platform's
// facts) are generated again: the generated types are erased from the built code, which is all that
// runs here, so no package under test can read a fact from them (openapi-typescript, for the types
// of six bundles, was two thirds of the generator's CPU).
import { spawnSync } from "node:child_process";
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { redoclyBin } from "../../spec/scripts/redocly-bin.mjs";

// Required rather than imported: Node's import of a CommonJS module first scans the whole of its
// text for named exports, and typescript.js is 9 MB (half a CPU-second of every run that loads it).
const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");

const root = fileURLToPath(new URL("../..", import.meta.url));
// Bundle and generate of the spec's copy: seconds alone, bounded for a loaded machine.
const PREPARE_TIMEOUT_MS = 5 * 60_000;
// A whole conformance run with writes and burst: seconds alone, bounded for a loaded machine.
const RUN_TIMEOUT_MS = 10 * 60_000;
/** The packages under test besides the spec, and what of each runs (built code, scenario sources). */
const PACKAGES = ["client", "simulator", "conformance"];

/** The facts the copy changes, and how: each edit must find its text, or the test says which. */
const CHANGED = {
  requestRate: 40,
  limitMaximum: 500,
  limitDefault: 500,
  createVolume: { pollIntervalSeconds: 2, min: 2, max: 4 },
  status: { from: "rejected", to: "declined" },
};
const EDITS: { file: string; from: string; to: string }[] = [
  {
    file: "spec/openapi.yaml",
    from: "appliesTo: all\n    limit: 100\n",
    to: `appliesTo: all\n    limit: ${CHANGED.requestRate}\n`,
  },
  {
    file: "spec/components/parameters/common/Limit.yaml",
    from: "maximum: 1000",
    to: `maximum: ${CHANGED.limitMaximum}`,
  },
  {
    file: "spec/components/parameters/common/Limit.yaml",
    from: "default: 1000",
    to: `default: ${CHANGED.limitDefault}`,
  },
  {
    file: "spec/paths/cloud/task.yaml",
    from: "taskType: create_volume\n        typicalDurationSeconds: { min: 5, max: 15 }\n        pollIntervalSeconds: 5",
    to: `taskType: create_volume\n        typicalDurationSeconds: { min: ${CHANGED.createVolume.min}, max: ${CHANGED.createVolume.max} }\n        pollIntervalSeconds: ${CHANGED.createVolume.pollIntervalSeconds}`,
  },
  {
    file: "spec/components/schemas/reseller/QuotaLimitRequestStatus.yaml",
    from: `enum: [done, in progress, ${CHANGED.status.from}]`,
    to: `enum: [done, in progress, ${CHANGED.status.to}]`,
  },
];

/**
 * The conformance scenarios that read the changed facts, by fact. The suite's other scenarios
 * (authentication, the AI tasks' page lists with their own limit, storage notifications, errors)
 * read none of them, so they answer alike against either spec; a whole run was a third of this
 * file's CPU. Discovery, which walks the regions' offset list, runs whatever is selected.
 */
const READ_THE_CHANGED_FACTS = [
  // The request rate.
  "rate-limit.*",
  // The offset lists' limit bound and default; the status filter walks each value of the enum.
  "pagination.offset.*",
  // create_volume's polling interval and typical duration.
  "tasks.*",
  // Every answer of the above judged by the changed spec (its bounds, its enum).
  "schema.*",
];

let copy: string;

function run(what: string, [cmd, ...args]: string[], cwd: string, env: NodeJS.ProcessEnv = {}): string {
  const result = spawnSync(cmd as string, args, {
    cwd,
    encoding: "utf8",
    timeout: PREPARE_TIMEOUT_MS,
    env: { ...withoutTokens(), ...env },
  });
  if (result.status !== 0)
    throw new Error(
      `${what} failed (${result.status ?? result.signal}):\n${result.stdout}\n${result.stderr}`,
    );
  return result.stdout;
}

// A GCORE_* token of whoever runs the tests must not stand in for the simulator's own.
function withoutTokens(): NodeJS.ProcessEnv {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith("GCORE_")));
}

/** Imports a built module of the copy (its own dist, not this repository's). */
// What the test uses of the copy's modules. The root depends on none of the packages, and the
// copy's own builds are the ones under test, so they are imported by file.
type Json = Record<string, unknown>;
interface SpecModule {
  loadModel(): {
    conventions: {
      requestRate: { limit: number; periodSeconds: number };
      taskPolling: { terminalStates: string[] };
    };
  };
  loadBundle(): Json;
  operationById(model: unknown, id: string): { pointer: string };
  parameterOf(operation: unknown, name: string): Json | undefined;
  pollingAdviceFor(
    model: unknown,
    taskType: string,
  ): { known: boolean; interval?: { pollIntervalSeconds: number } };
  resolveRef(doc: unknown, node: unknown): Json;
  tokenScheme(model: unknown, name: string): { headerName: string; tokenPrefix: string };
}
interface ClientModule {
  DEFAULTS: { requestsPerSecond: number };
  recommendedPollIntervalMs(taskType: string): number;
  createClient(options: Json): {
    GET(path: string, init: { params: { query: Json } }): Promise<unknown>;
  };
}
interface SimulatorModule {
  startSimulator(options: Json): Promise<{
    apiKey: string;
    resellerApiKey: string;
    advance(seconds: number): void;
    close(): Promise<void>;
    app: {
      inject(request: {
        method: string;
        url: string;
        headers: Record<string, string>;
        payload?: string;
      }): Promise<{
        statusCode: number;
        json(): Json;
      }>;
    };
  }>;
}
interface ConformanceModule {
  DEFAULTS: { rateLimit: number };
  parseArgs(argv: string[]): Json;
  runConformance(
    options: Json,
    io: { env: NodeJS.ProcessEnv; write(line: string): void },
  ): Promise<{ exitCode: number }>;
}
const fromCopy = <T>(file: string): Promise<T> => import(pathToFileURL(join(copy, file)).href);

/** The files git knows under `dir` (tracked or new, not ignored). */
function listed(dir: string): string[] {
  return spawnSync("git", ["ls-files", "-co", "--exclude-standard", "-z", "--", dir], {
    cwd: root,
    encoding: "utf8",
  })
    .stdout.split("\0")
    .filter((file) => file && existsSync(join(root, file)));
}

function copyFiles(files: string[]): void {
  for (const file of files) {
    mkdirSync(dirname(join(copy, file)), { recursive: true });
    cpSync(join(root, file), join(copy, file), { verbatimSymlinks: true });
  }
}

/**
 * A build's output as it runs: its JavaScript, not its declarations and source maps, which nothing
 * here reads (types are erased; Node reads no map unless told to) and which are three files in four.
 */
function copyBuilt(dir: string): void {
  cpSync(join(root, dir), join(copy, dir), {
    recursive: true,
    filter: (source) => !/\.(d\.ts|d\.ts\.map|js\.map)$/.test(source),
  });
}

/**
 * The copy's node_modules for a package: every dependency this repository installed for it,
 * linked where it really is, but the workspace's own packages, linked to their copies.
 */
function linkDependencies(dir: string): void {
  const installed = join(root, dir, "node_modules");
  const target = join(copy, dir, "node_modules");
  mkdirSync(target, { recursive: true });
  const names = readdirSync(installed).flatMap((name) =>
    name.startsWith("@") ? readdirSync(join(installed, name)).map((sub) => `${name}/${sub}`) : [name],
  );
  for (const name of names) {
    if (name.startsWith(".")) continue;
    const workspace =
      name === "@platform-api/spec"
        ? "spec"
        : name.startsWith("@platform-api/")
          ? `packages/${name.split("/")[1]}`
          : undefined;
    mkdirSync(dirname(join(target, name)), { recursive: true });
    symlinkSync(
      workspace ? join(copy, workspace) : realpathSync(join(installed, name)),
      join(target, name),
      "dir",
    );
  }
}

/**
 * As `pnpm bundle` (after redocly's bundle) and `pnpm generate` do, in one process of the copy's
 * spec: its scripts' own functions enter the platform's facts into the whole API's bundle (the
 * seed's own kept in dist/seed/) and write the generated modules that are data. Prints the files it
 * wrote, as JSON. The facts entered are the built package's (platformFacts(): platform-facts.yaml
 * as generate checked and wrote it, which the spec's own test proves fresh), not the YAML read and
 * checked again (a third of this process's CPU); no edit here changes them.
 */
const MERGE_AND_GENERATE = `
import { writeFileSync } from "node:fs";
import { platformFacts } from "./lib/index.js";
import { generateRuntimeModules } from "./scripts/generate.mjs";
import { mergeDist } from "./scripts/merge-platform.mjs";
mergeDist(undefined, platformFacts(), ["openapi"]);
const modules = generateRuntimeModules();
for (const [file, text] of Object.entries(modules)) writeFileSync(\`src/generated/\${file}\`, text);
console.log(JSON.stringify(Object.keys(modules)));
`;

/**
 * Compiles what the generator wrote in the spec's copy into its lib/generated/ as its build does
 * (its own tsconfig.build.json, so the same JavaScript), those modules alone: no type is checked
 * and nothing they import is read, which the build's noCheck and isolatedModules allow.
 */
function buildGenerated(spec: string, written: string[]): void {
  const runtimeOnly = { declaration: false, declarationMap: false, sourceMap: false, noResolve: true };
  const config = ts.getParsedCommandLineOfConfigFile(
    join(spec, "tsconfig.build.json"),
    { ...runtimeOnly, noLib: true, types: [] },
    {
      ...ts.sys,
      onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
        throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n"));
      },
    },
  );
  if (!config) throw new Error("spec/tsconfig.build.json could not be read");
  const files = written.map((file) => join(spec, "src/generated", file));
  const program = ts.createProgram(files, config.options);
  for (const file of files) {
    const { emitSkipped } = program.emit(program.getSourceFile(file));
    if (emitSkipped) throw new Error(`${file} was not compiled`);
  }
}

beforeAll(() => {
  if (EDITS.some((edit) => edit.file.startsWith("spec/src/")))
    throw new Error("an edit of the spec's sources needs the spec's whole build, not its lib/ copied");
  if (EDITS.some((edit) => edit.file.startsWith("spec/platform-facts")))
    throw new Error("an edit of the platform's facts needs them read from the YAML, not from lib/");
  copy = mkdtempSync(join(tmpdir(), "platform-api-spec-facts-"));
  copyFiles([
    "tsconfig.base.json",
    ...listed("spec").filter((file) => !file.startsWith("spec/dist/") && !file.startsWith("spec/lib/")),
  ]);
  for (const edit of EDITS) {
    const file = join(copy, edit.file);
    const text = readFileSync(file, "utf8");
    if (!text.includes(edit.from))
      throw new Error(
        `${edit.file} no longer contains ${JSON.stringify(edit.from)}: update this test's EDITS.`,
      );
    writeFileSync(file, text.replace(edit.from, edit.to));
  }
  linkDependencies("spec");
  const spec = join(copy, "spec");
  // The whole API's bundle only (redocly.yaml's `all`), not the products' nor the YAML one: the
  // packages under test read dist/openapi.json alone (a product's bundle is the docs' and its types'),
  // and one that read another would fail here, its file missing (loadBundle names it). Half of
  // redocly's CPU.
  run(
    "bundle the changed spec",
    [process.execPath, redoclyBin(), "bundle", "all", "--lint-config=off"],
    spec,
    {
      // No telemetry and no update check: nothing leaves the machine.
      REDOCLY_TELEMETRY: "off",
      REDOCLY_SUPPRESS_UPDATE_NOTICE: "true",
    },
  );
  // The generator reads the model through the built package, then what it wrote is built.
  if (!existsSync(join(root, "spec/lib"))) throw new Error("spec is not built: run pnpm build first.");
  copyBuilt("spec/lib");
  const written = run(
    "merge the platform's facts and generate from them",
    [process.execPath, "--input-type=module", "-e", MERGE_AND_GENERATE],
    spec,
  );
  buildGenerated(spec, JSON.parse(written) as string[]);
  // The other packages as built here: they must follow the copy's spec at run time.
  for (const name of PACKAGES) {
    const dir = `packages/${name}`;
    if (!existsSync(join(root, dir, "dist"))) throw new Error(`${dir} is not built: run pnpm build first.`);
    copyFiles(listed(dir).filter((file) => !file.includes("/test/")));
    copyBuilt(`${dir}/dist`);
    linkDependencies(dir);
  }
}, PREPARE_TIMEOUT_MS);

// Bounded for a loaded machine (the copy links its dependencies; nothing big is copied).
const REMOVE_TIMEOUT_MS = 60_000;
afterAll(async () => {
  if (copy) await rm(copy, { recursive: true, force: true });
}, REMOVE_TIMEOUT_MS);

describe("a spec with other facts, rebuilt with no code change", () => {
  it("the spec model states the changed facts", async () => {
    const spec = await fromCopy<SpecModule>("spec/lib/index.js");
    const model = spec.loadModel();
    expect(model.conventions.requestRate.limit).toBe(CHANGED.requestRate);
    const regions = spec.operationById(model, "listRegions");
    expect(spec.parameterOf(regions, "limit")).toMatchObject({
      maximum: CHANGED.limitMaximum,
      default: CHANGED.limitDefault,
    });
    const advice = spec.pollingAdviceFor(model, "create_volume");
    expect(advice.known && advice.interval?.pollIntervalSeconds).toBe(
      CHANGED.createVolume.pollIntervalSeconds,
    );
  });

  it("the client paces, bounds, polls and validates by the new facts", async () => {
    const client = await fromCopy<ClientModule>("packages/client/dist/index.js");
    expect(client.DEFAULTS.requestsPerSecond).toBe(CHANGED.requestRate);
    expect(client.recommendedPollIntervalMs("create_volume")).toBe(
      CHANGED.createVolume.pollIntervalSeconds * 1000,
    );
    const sent: string[] = [];
    const api = client.createClient({
      apiKey: "fact-test-token",
      resellerApiKey: "fact-test-reseller-token",
      baseUrl: "http://127.0.0.1:9",
      rateLimit: false,
      fetch: async (input: RequestInfo | URL) => {
        sent.push(new Request(input).url);
        return new Response(JSON.stringify({ count: 0, results: [] }), {
          headers: { "content-type": "application/json" },
        });
      },
    });
    const over = api.GET("/cloud/v1/regions", { params: { query: { limit: CHANGED.limitMaximum + 1 } } });
    await expect(over).rejects.toThrow(String(CHANGED.limitMaximum));
    await api.GET("/cloud/v1/regions", { params: { query: { limit: CHANGED.limitMaximum } } });
    const old = api.GET("/cloud/reseller/v1/limits_request", {
      // The old enum value is what a stale copy would still accept.
      params: { query: { status: [CHANGED.status.from] } },
    });
    await expect(old).rejects.toThrow(CHANGED.status.to);
    await api.GET("/cloud/reseller/v1/limits_request", {
      params: { query: { status: [CHANGED.status.to] } },
    });
    expect(sent).toHaveLength(2);
  });

  it("the simulator bounds, enumerates, times tasks and rate-limits by the new facts", async () => {
    const { startSimulator } = await fromCopy<SimulatorModule>("packages/simulator/dist/index.js");
    const spec = await fromCopy<SpecModule>("spec/lib/index.js");
    const model = spec.loadModel();
    const { tokenPrefix } = spec.tokenScheme(model, "APIKey");
    const sim = await startSimulator({ port: 0, host: "127.0.0.1", env: {}, timeScale: 1 });
    try {
      const call = async (
        method: string,
        path: string,
        { reseller = false, body = undefined as unknown } = {},
      ) => {
        const answer = await sim.app.inject({
          method,
          url: path,
          headers: {
            authorization: `${tokenPrefix}${reseller ? sim.resellerApiKey : sim.apiKey}`,
            ...(body === undefined ? {} : { "content-type": "application/json" }),
          },
          ...(body === undefined ? {} : { payload: JSON.stringify(body) }),
        });
        return { status: answer.statusCode, body: answer.json() as Record<string, unknown> };
      };

      const tooMany = await call("GET", `/cloud/v1/regions?limit=${CHANGED.limitMaximum + 1}`);
      expect(tooMany.status).toBe(400);
      expect(String(tooMany.body.message)).toContain(String(CHANGED.limitMaximum));
      expect((await call("GET", `/cloud/v1/regions?limit=${CHANGED.limitMaximum}`)).status).toBe(200);

      const old = await call("GET", `/cloud/reseller/v1/limits_request?status=${CHANGED.status.from}`, {
        reseller: true,
      });
      expect(old.status).toBe(400);
      const requests = await call("GET", "/cloud/reseller/v1/limits_request", { reseller: true });
      const statuses = new Set((requests.body.results as { status: string }[]).map((r) => r.status));
      expect([...statuses].every((s) => s !== CHANGED.status.from)).toBe(true);

      // A volume's task finishes within the new typical duration (the old one was 5 to 15 s).
      const projects = await call("GET", "/cloud/v1/projects");
      const project = (projects.body.results as { id: number; is_default: boolean }[]).find(
        (p) => p.is_default,
      );
      const regions = await call("GET", "/cloud/v1/regions");
      const region = (regions.body.results as { id: number; state: string }[]).find(
        (r) => r.state === "ACTIVE",
      );
      // The spec's own example of a volume to create.
      const createVolume = spec.operationById(model, "createVolume");
      const requestBody = spec.resolveRef(spec.loadBundle(), { $ref: `${createVolume.pointer}/requestBody` });
      const media = (requestBody.content as Record<string, Json>)["application/json"];
      const example = Object.values(media?.examples as Record<string, unknown>)[0];
      const created = await call("POST", `/cloud/v1/volumes/${project?.id}/${region?.id}`, {
        body: spec.resolveRef(spec.loadBundle(), example).value,
      });
      expect(created.status, JSON.stringify(created.body)).toBeLessThan(300);
      const [taskId] = created.body.tasks as string[];
      sim.advance(CHANGED.createVolume.max);
      const task = await call("GET", `/cloud/v1/tasks/${taskId}`);
      expect(model.conventions.taskPolling.terminalStates).toContain(task.body.state);

      // The request rate: a burst's first `limit` requests pass and the next is refused. The
      // simulator counts requests by Date.now over the period: with Date stood still the whole
      // burst falls in one period however slow the machine, and moving it on by a period empties
      // the window of the requests above (no real waiting, no retries).
      vi.useFakeTimers({ toFake: ["Date"] });
      vi.setSystemTime(Date.now() + model.conventions.requestRate.periodSeconds * 1000);
      let passed = 0;
      for (let i = 0; i < CHANGED.requestRate * 3; i++) {
        const answer = await sim.app.inject({
          method: "GET",
          url: "/cloud/v1/projects",
          headers: { authorization: `${tokenPrefix}${sim.apiKey}` },
        });
        if (answer.statusCode === 429) break;
        passed++;
      }
      expect(passed).toBe(CHANGED.requestRate);
    } finally {
      vi.useRealTimers();
      await sim.close();
    }
  });

  it(
    "the conformance suite, against the simulator built from that spec, is CONFORMANT",
    async () => {
      // In this process, as the CLI runs it once its flags are parsed: what is proven is the
      // suite's verdict, not its command line (which the conformance package's own tests cover).
      const { DEFAULTS, parseArgs, runConformance } = await fromCopy<ConformanceModule>(
        "packages/conformance/dist/index.js",
      );
      const report = mkdtempSync(join(tmpdir(), "platform-api-spec-facts-report-"));
      const run = async (...flags: string[]) => {
        const lines: string[] = [];
        const { exitCode } = await runConformance(parseArgs([...flags, "--report", report]), {
          env: withoutTokens(),
          write: (line) => lines.push(line),
        });
        return { exitCode, output: lines.join("\n") };
      };
      try {
        // The suite's own pace is half the new rate, and it refuses a pace above the new rate.
        expect(DEFAULTS.rateLimit, "default pace").toBe(CHANGED.requestRate / 2);
        const tooFast = await run("--rate-limit", String(CHANGED.requestRate + 1));
        expect(tooFast.exitCode, tooFast.output).toBe(2);
        expect(tooFast.output).toContain(`${CHANGED.requestRate} requests per second`);
        // Paced just under the new rate rather than at half of it: the run is mostly its pace (a
        // few hundred requests), and the default pace is proven above.
        const paced = String(CHANGED.requestRate * 0.9);
        const full = await run(
          "--allow-writes",
          "--allow-burst",
          "--rate-limit",
          paced,
          "--only",
          ...READ_THE_CHANGED_FACTS,
        );
        expect(full.exitCode, full.output).toBe(0);
        expect(full.output).toContain("CONFORMANT");
      } finally {
        rmSync(report, { recursive: true, force: true });
      }
    },
    RUN_TIMEOUT_MS,
  );
});
