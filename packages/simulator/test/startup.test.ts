import { execFile, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { CommanderError } from "commander";
import { describe, expect, it } from "vitest";
import { cliProgram } from "../src/cli-program.js";
import {
  createDefaultWorld,
  createSimulator,
  DEFAULT_TOKENS,
  SIMULATOR_HEADER,
  startSimulator,
} from "../src/index.js";
import { createTestSimulator, tokenPrefix } from "./harness.js";
import { changedSpec, nodeAt } from "./spec-copy.js";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
const run = promisify(execFile);

describe("starting", () => {
  it("refuses to start when an operation of the spec has no handler", async () => {
    const spec = changedSpec((doc) => {
      nodeAt(doc, "#/paths")["/cloud/v1/flavors"] = {
        get: {
          operationId: "listFlavors",
          "x-product": "cloud",
          responses: { "200": { description: "ok" } },
        },
      };
    });
    await expect(createSimulator({ spec })).rejects.toThrow(
      /operations without a simulator handler: listFlavors \(GET \/cloud\/v1\/flavors\)/,
    );
  });

  it("refuses to start when a handler names an operation the spec lacks", async () => {
    const spec = changedSpec((doc) => {
      delete nodeAt(doc, "#/paths")["/iam/clients/me"];
    });
    await expect(createSimulator({ spec })).rejects.toThrow(
      /handlers name operations the spec does not have: getCurrentClient/,
    );
  });

  it("says which options are wrong and what is allowed", async () => {
    await expect(startSimulator({ port: 70000, timeScale: 0, rateLimit: -1 })).rejects.toThrow(
      /port must be an integer from 0 to 65535 \(got 70000\); timeScale must be a number above 0 \(got 0\); rateLimit must be a whole number/,
    );
    await expect(startSimulator({ apiKey: "has space" })).rejects.toThrow(
      /apiKey must be a non-empty token without spaces/,
    );
    await expect(startSimulator({ faults: "404:1" })).rejects.toThrow(/unknown kind "404"/);
  });

  it("listens on loopback by default", async () => {
    const sim = await startSimulator({ port: 0 });
    try {
      expect(sim.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
      expect(sim.port).toBeGreaterThan(0);
    } finally {
      await sim.close();
    }
  });
});

describe("--seed FILE replaces the default world", () => {
  const dir = mkdtempSync(join(tmpdir(), "sim-seed-"));

  it("serves a world from a file", async () => {
    const world = {
      clients: [{ id: 1, email: "solo@example.com", status: "active" }],
      tokens: [{ token: "1$solo", kind: "client", owner_id: 1 }],
      projects: [{ id: 10, name: "only", is_default: true, state: "ACTIVE", client_id: 1 }],
      regions: [createDefaultWorld().regions[0]],
      instances: [{ project_id: 10, region_id: 76, count: 3 }],
    };
    const file = join(dir, "world.json");
    writeFileSync(file, JSON.stringify(world));
    const t = await createTestSimulator({ seedFile: file });
    try {
      expect(t.sim.apiKey).toBe("1$solo");
      expect((await t.call("GET", "/cloud/v1/projects")).body.count).toBe(1);
      expect((await t.call("GET", "/cloud/v1/instances/10/76")).body.count).toBe(3);
      expect((await t.call("GET", "/cloud/v1/regions")).body.count).toBe(1);
      expect((await t.call("GET", "/security/iaas/v2/profiles/4211")).status).toBe(404);
    } finally {
      await t.close();
    }
  });

  it("refuses a seed file that breaks the spec or its own references, saying where", async () => {
    const bad = join(dir, "bad.json");
    writeFileSync(bad, JSON.stringify({ clients: [], tokens: [], projects: [], regions: [{ id: "x" }] }));
    await expect(startSimulator({ seedFile: bad })).rejects.toThrow(
      /seed file .*bad\.json is not a valid world: \/regions\/0/,
    );
    const dangling = join(dir, "dangling.json");
    writeFileSync(
      dangling,
      JSON.stringify({
        clients: [],
        tokens: [{ token: "1$x", kind: "client", owner_id: 5 }],
        projects: [],
        regions: [],
      }),
    );
    await expect(startSimulator({ seedFile: dangling })).rejects.toThrow(
      /\/tokens\/0 names client 5, which is not in clients/,
    );
    await expect(startSimulator({ seedFile: join(dir, "missing.json") })).rejects.toThrow(
      /Cannot read the seed file/,
    );
  });
});

describe("telling a tester it is the simulator", () => {
  it("marks every answer, and GET /_sim/hints gives the token's protection profile and a GPU flavor", async () => {
    const sim = await createSimulator({ env: {} });
    try {
      const get = (url: string, headers: Record<string, string> = {}) =>
        sim.app.inject({ method: "GET", url, headers });
      const auth = { authorization: `${tokenPrefix}${sim.apiKey}` };
      const me = await get("/iam/clients/me", auth);
      expect(me.headers[SIMULATOR_HEADER.toLowerCase()]).toMatch(/^\d+\.\d+\.\d+/);
      const refused = await get("/iam/clients/me");
      expect(refused.statusCode).toBe(401);
      expect(refused.headers[SIMULATOR_HEADER.toLowerCase()]).toBeDefined();

      const world = sim.store.world;
      const owner = world.tokens.find((t) => t.token === sim.apiKey)?.owner_id;
      const profile = world.protection_profiles.find((p) => p.client_id === owner);
      expect(profile).toBeDefined();
      const hints = (await get("/_sim/hints", auth)).json();
      expect(hints).toEqual({
        gpu_flavor: world.flavors[0]?.name,
        protection_profile_id: profile?.record.id,
      });
      // Without a client token there is no profile to name; the flavor is the world's.
      const anonymous = (await get("/_sim/hints")).json();
      expect(anonymous).toEqual({ gpu_flavor: world.flavors[0]?.name, protection_profile_id: null });
    } finally {
      await sim.close();
    }
  });
});

describe("the CLI (pnpm sim)", () => {
  // A real process: the line is what the bin prints on stdout once it listens. One start shows both
  // a default token printed whole (the reseller's) and a token from the environment only named.
  it("prints one line with its URL and the tokens it accepts, never a token from the environment, and serves them", async () => {
    const fromEnv = "77$secret-from-env";
    const child = spawn(process.execPath, [cli, "--port", "0", "--time-scale", "0.01"], {
      env: { ...process.env, GCORE_API_KEY: fromEnv, GCORE_RESELLER_API_KEY: "" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    try {
      const line = await new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error("no ready line within 60 s")), 60_000);
        let out = "";
        child.stdout.on("data", (chunk) => {
          out += chunk;
          if (out.includes("\n")) {
            clearTimeout(timer);
            resolve(out.split("\n")[0] as string);
          }
        });
        child.once("exit", (code) => reject(new Error(`exited with ${code}`)));
      });
      expect(line, "its URL, on loopback").toMatch(
        /^Platform API simulator at http:\/\/127\.0\.0\.1:\d+ — tokens: /,
      );
      expect(line, "a default token, whole").toContain(`reseller '${DEFAULT_TOKENS.reseller}'`);
      expect(line, "the environment's token, by its variable").toContain("client from $GCORE_API_KEY");
      expect(line, "never the environment's token itself").not.toContain("secret-from-env");
      const url = /http:\/\/\S+/.exec(line)?.[0] as string;
      const me = await fetch(`${url}/iam/clients/me`, {
        headers: { Authorization: `${tokenPrefix}${fromEnv}` },
      });
      expect(me.status, "serves the token it names").toBe(200);
    } finally {
      child.kill("SIGTERM");
    }
  });

  // In-process: what commander prints for --version and --help is the program's (cli-program.ts).
  it("--version prints the package's version, and its usage names the bin", () => {
    const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    const version = parseFlags(["--version"]);
    expect(version.exitCode).toBe(0);
    expect(version.out.trim()).toBe(manifest.version);
    const help = parseFlags(["--help"]);
    expect(help.exitCode).toBe(0);
    expect(help.out).toMatch(new RegExp(`^Usage: ${Object.keys(manifest.bin)[0]} `));
  });

  it("exits 2 with a clear message for a bad option", async () => {
    // A real process: the simulator's refusal, which the bin answers with exit 2.
    const failure = await run(process.execPath, [cli, "--faults", "boom:1", "--port", "0"]).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/platform-api-sim: Fault "boom:1" has an unknown kind/);
  });

  // Usage errors are exit 2 whatever layer finds them: commander's own (a value its parser refuses,
  // an unknown flag) as much as the simulator's (a fault spec it cannot read, above). The message
  // of each is the program's, read in-process; one real process shows the bin exits 2 for them.
  it.each([
    [["--port", "-1"], /--port must be an integer from 0 to 65535/],
    [["--port", "65536"], /--port must be an integer from 0 to 65535/],
    [["--port", "abc"], /--port must be an integer from 0 to 65535/],
    [["--time-scale", "-1"], /--time-scale must be a number above 0/],
    [["--request-timeout", "0"], /--request-timeout must be an integer from 1 to/],
    [["--no-such-flag"], /unknown option '--no-such-flag'/],
  ])("%j is refused, naming what is allowed", (args, message) => {
    const refused = parseFlags(args);
    expect(refused.exitCode).not.toBe(0);
    expect(refused.err).toMatch(message);
  });

  it("exits 2 for a flag commander refuses", async () => {
    const failure = await run(process.execPath, [cli, "--port", "abc"]).catch((e) => e);
    expect(failure.code).toBe(2);
    expect(failure.stderr).toMatch(/--port must be an integer from 0 to 65535/);
  });
});

/** Parses flags as the bin does, in-process: what commander writes, and the exit code it asks for. */
function parseFlags(args: string[]): { out: string; err: string; exitCode: number | undefined } {
  let out = "";
  let err = "";
  const program = cliProgram()
    .exitOverride()
    .configureOutput({
      writeOut: (text) => {
        out += text;
      },
      writeErr: (text) => {
        err += text;
      },
    });
  try {
    program.parse(args, { from: "user" });
    return { out, err, exitCode: undefined };
  } catch (error) {
    if (error instanceof CommanderError) return { out, err, exitCode: error.exitCode };
    throw error;
  }
}
