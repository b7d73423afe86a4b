// Starts (or names) the server a run talks to: the simulator in this process, Prism on the bundled
// spec, or any server given by URL with keys from environment variables.

import { type Simulator, startSimulator } from "@platform-api/simulator";
import { startPrismMock } from "@platform-api/spec/mock";
import type { RunContext, TargetKind } from "./context.js";
import { type ConformanceOptions, DEFAULTS, targetKind, UsageError } from "./options.js";

export interface StartedTarget {
  kind: TargetKind;
  url: string;
  label: string;
  apiKey: string;
  resellerApiKey?: string;
  timeScale: number;
  /** What the target itself knows that the API cannot tell (the simulator's world). */
  hints: Partial<RunContext["discovered"]>;
  close(): Promise<void>;
}

/** Prism checks only that an Authorization header is there; these are shaped like real tokens. */
const PRISM_KEYS = { apiKey: "100$prism-client-token", resellerApiKey: "200$prism-reseller-token" };

export async function startTarget(
  options: ConformanceOptions,
  env: Record<string, string | undefined> = process.env,
): Promise<StartedTarget> {
  const kind = targetKind(options.target);
  if (kind === "simulator") {
    const timeScale = options.timeScale ?? DEFAULTS.simulatorTimeScale;
    // env: {} so that a GCORE_API_KEY meant for a live target never becomes the simulator's token.
    const sim = await startSimulator({ port: 0, timeScale, env: {} });
    return {
      kind,
      url: sim.url,
      label: `embedded simulator (${sim.url}, time scale ${timeScale})`,
      apiKey: sim.apiKey,
      resellerApiKey: sim.resellerApiKey,
      timeScale,
      hints: simulatorHints(sim),
      close: () => sim.close(),
    };
  }
  if (kind === "prism") {
    const mock = await startPrismMock({ port: 0 });
    return {
      kind,
      url: mock.url,
      label: `Prism mock of the bundled spec (${mock.url})`,
      ...PRISM_KEYS,
      timeScale: options.timeScale ?? 1,
      // Prism answers any id and any flavor with the spec's example.
      hints: { protectionProfileId: 1, gpuFlavor: "any-flavor" },
      close: mock.close,
    };
  }
  const apiKey = env[options.apiKeyEnv];
  if (!apiKey)
    throw new UsageError(
      `No API key: the environment variable ${options.apiKeyEnv} is empty or not set. Put the token from the customer portal in it (single-quote it: tokens contain a $), or name another variable with --api-key-env.`,
    );
  if (/\s/.test(apiKey) || /^APIKey /i.test(apiKey))
    throw new UsageError(
      `The token in ${options.apiKeyEnv} must be the bare token, without "APIKey " or spaces.`,
    );
  const resellerApiKey = env[options.resellerApiKeyEnv] || undefined;
  const url = options.target.replace(/\/+$/, "");
  return {
    kind,
    url,
    label: url,
    apiKey,
    resellerApiKey,
    timeScale: options.timeScale ?? 1,
    hints: {},
    close: async () => {},
  };
}

/** What the API cannot tell about a simulator: a protection profile of its client, a GPU flavor. */
export function simulatorHints(sim: Simulator): Partial<RunContext["discovered"]> {
  const world = sim.store.world;
  const owner = world.tokens.find((t) => t.token === sim.apiKey)?.owner_id;
  const profile = world.protection_profiles.find((p) => p.client_id === owner);
  return { protectionProfileId: profile?.record.id as number | undefined, gpuFlavor: world.flavors[0]?.name };
}
