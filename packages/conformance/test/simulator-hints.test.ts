// A simulator given by URL tells the suite what the API cannot (a GPU flavor, the token's protection
// profile), so a run against `npx platform-api-sim` skips nothing for want of them; a server that
// does not say it is the simulator is asked nothing.
import { startSimulator } from "@platform-api/simulator";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseArgs } from "../src/cli/cli-options.js";
import { prepareRun } from "../src/discovery/prepare.js";
import { askSimulatorHints, embeddedHints } from "../src/discovery/target.js";
import { startFaultyTarget } from "./faulty-target.js";

type Sim = Awaited<ReturnType<typeof startSimulator>>;
let sim: Sim;

beforeAll(async () => {
  sim = await startSimulator({ port: 0, env: {} });
}, 60_000);
afterAll(() => sim?.close());

const quiet = () => {};
const tokens = () => ({ GCORE_API_KEY: sim.apiKey, GCORE_RESELLER_API_KEY: sim.resellerApiKey });

describe("hints of a simulator at a URL", () => {
  it("GET /_sim/hints gives what the embedded simulator gives in-process", async () => {
    const hints = await askSimulatorHints(sim.url, sim.apiKey);
    expect(hints).toEqual(embeddedHints(sim));
    expect(hints.gpuFlavor).toEqual(expect.any(String));
    expect(hints.protectionProfileId).toEqual(expect.any(Number));
  });

  it("discovery asks a server whose answers carry the simulator's header, and uses what it says", async () => {
    const prepared = await prepareRun(parseArgs(["--target", sim.url]), tokens(), quiet);
    try {
      expect(prepared.context.discovered.gpuFlavor).toBe(embeddedHints(sim).gpuFlavor);
      expect(prepared.context.discovered.protectionProfileId).toBe(embeddedHints(sim).protectionProfileId);
    } finally {
      await prepared.close();
    }
  }, 60_000);

  it("flags still win over what the simulator says", async () => {
    const args = ["--target", sim.url, "--gpu-flavor", "given-flavor", "--protection-profile-id", "999"];
    const prepared = await prepareRun(parseArgs(args), tokens(), quiet);
    try {
      expect(prepared.context.discovered.gpuFlavor).toBe("given-flavor");
      expect(prepared.context.discovered.protectionProfileId).toBe(999);
    } finally {
      await prepared.close();
    }
  }, 60_000);

  it("a server that does not say it is the simulator is asked nothing", async () => {
    const asked: string[] = [];
    const target = await startFaultyTarget({
      name: "a platform (no simulator header)",
      fails: [],
      request: (exchange) => {
        asked.push(exchange.path);
        return undefined;
      },
    });
    try {
      const env = { GCORE_API_KEY: target.sim.apiKey, GCORE_RESELLER_API_KEY: target.sim.resellerApiKey };
      const prepared = await prepareRun(parseArgs(["--target", target.url]), env, quiet);
      await prepared.close();
      expect(prepared.context.discovered.gpuFlavor).toBeUndefined();
      expect(prepared.context.discovered.protectionProfileId).toBeUndefined();
      expect(asked.length).toBeGreaterThan(0);
      expect(asked.filter((path) => path.startsWith("/_sim"))).toEqual([]);
    } finally {
      await target.close();
    }
  }, 60_000);
});
