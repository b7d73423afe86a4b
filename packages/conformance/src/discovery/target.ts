// Starts (or names) the server a run talks to: the simulator in this process, Prism on the bundled
// spec, or any server given by URL with keys from environment variables.

import { SIMULATOR_HEADER, type Simulator, simulatorHints, startSimulator } from "@platform-api/simulator";
import { authorization } from "@platform-api/spec";
import { PrismNotInstalledError, startPrismMock } from "@platform-api/spec/mock";
import { clientKeyScheme } from "../facts/tokens.js";
import { type ConformanceOptions, SIMULATOR_TIME_SCALE } from "../shared/conformance-options.js";
import type { RunContext, TargetKind } from "../shared/context.js";
import { UsageError } from "../shared/usage-error.js";
import { targetKind } from "./check-options.js";

export interface StartedTarget {
  kind: TargetKind;
  url: string;
  label: string;
  apiKey: string;
  resellerApiKey?: string;
  timeScale: number;
  /** What the target itself knows that the API cannot tell (the simulator's world). */
  hints: Partial<RunContext["discovered"]>;
  /**
   * Asks a server that says it is the simulator (its answers carry SIMULATOR_HEADER) for those
   * hints; URL targets only, called once an answer showed the header.
   */
  askHints?(): Promise<Partial<RunContext["discovered"]>>;
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
    const timeScale = options.timeScale ?? SIMULATOR_TIME_SCALE;
    // env: {} so that a GCORE_API_KEY meant for a live target never becomes the simulator's token.
    const sim = await startSimulator({ port: 0, timeScale, env: {} });
    return {
      kind,
      url: sim.url,
      label: `embedded simulator (${sim.url}, time scale ${timeScale})`,
      apiKey: sim.apiKey,
      resellerApiKey: sim.resellerApiKey,
      timeScale,
      hints: embeddedHints(sim),
      close: () => sim.close(),
    };
  }
  if (kind === "prism") {
    const mock = await startPrismMock({ port: 0 }).catch((error: unknown) => {
      // Prism is an optional peer of the suite: its absence is a setup to change, not a deviation.
      if (error instanceof PrismNotInstalledError) throw new UsageError(`--target prism: ${error.message}`);
      throw error;
    });
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
  const { tokenPrefix } = clientKeyScheme();
  if (/\s/.test(apiKey) || apiKey.toLowerCase().startsWith(tokenPrefix.toLowerCase()))
    throw new UsageError(
      `The token in ${options.apiKeyEnv} must be the bare token, without "${tokenPrefix}" or spaces.`,
    );
  checkCarried(apiKey, options.apiKeyEnv);
  const resellerApiKey = env[options.resellerApiKeyEnv] || undefined;
  if (resellerApiKey !== undefined) checkCarried(resellerApiKey, options.resellerApiKeyEnv);
  const url = options.target.replace(/\/+$/, "");
  return {
    kind,
    url,
    label: url,
    apiKey,
    resellerApiKey,
    timeScale: options.timeScale ?? 1,
    hints: {},
    askHints: () => askSimulatorHints(url, apiKey),
    close: async () => {},
  };
}

/**
 * A token goes in a header (its security scheme's, after the scheme's prefix), which carries visible ASCII only
 * (fetch refuses the rest before sending, which looked like a target that cannot be reached). Says
 * which character, by its place, never the token.
 */
function checkCarried(token: string, variable: string): void {
  const at = [...token].findIndex((c) => !/^[\x21-\x7e]$/.test(c));
  if (at >= 0)
    throw new UsageError(
      `The token in ${variable} holds a character no HTTP header can carry (its character ${at + 1} is not visible ASCII); a token is visible ASCII only, ! to ~. Copy it again from the customer portal.`,
    );
}

/** What the API cannot tell about the embedded simulator: a protection profile of its client, a GPU flavor. */
export function embeddedHints(sim: Simulator): Partial<RunContext["discovered"]> {
  return simulatorHints(sim.store, sim.apiKey);
}

/** How long the simulator's admin surface may take; it answers from memory. */
const HINTS_TIMEOUT_MS = 10_000;

/**
 * GET /_sim/hints of a simulator at `url`: nothing when it does not answer as the simulator does, so
 * a server that only carries the header is run like any other.
 */
export async function askSimulatorHints(
  url: string,
  apiKey: string,
): Promise<Partial<RunContext["discovered"]>> {
  const scheme = clientKeyScheme();
  try {
    const answer = await fetch(`${url}/_sim/hints`, {
      headers: { [scheme.headerName]: authorization(scheme, apiKey) },
      signal: AbortSignal.timeout(HINTS_TIMEOUT_MS),
    });
    if (!answer.ok || !answer.headers.has(SIMULATOR_HEADER)) return {};
    const body = (await answer.json()) as { gpu_flavor?: unknown; protection_profile_id?: unknown };
    return {
      ...(typeof body.gpu_flavor === "string" ? { gpuFlavor: body.gpu_flavor } : {}),
      ...(Number.isInteger(body.protection_profile_id)
        ? { protectionProfileId: body.protection_profile_id as number }
        : {}),
    };
  } catch {
    return {};
  }
}
