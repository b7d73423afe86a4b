// What the platform's API cannot tell a tester about this simulator's world, but a run needs: a
// protection profile the token's client owns and a virtual GPU flavor name (the spec lists none).
// The conformance suite reads them in-process, or over HTTP from GET /_sim/hints when the answers
// carry SIMULATOR_HEADER.
import type { Store } from "./store.js";

/** Sent with every answer, so a tester can tell the simulator from the platform. */
export const SIMULATOR_HEADER = "x-platform-api-simulator";

export interface SimulatorHints {
  gpuFlavor?: string;
  protectionProfileId?: number;
}

/** The hints for a client token (none for an unknown one but the GPU flavor). */
export function simulatorHints(store: Store, token: string | undefined): SimulatorHints {
  const world = store.world;
  const owner = token === undefined ? undefined : store.token(token)?.owner_id;
  const profile =
    owner === undefined ? undefined : world.protection_profiles.find((p) => p.client_id === owner);
  return {
    gpuFlavor: world.flavors[0]?.name,
    protectionProfileId: profile?.record.id as number | undefined,
  };
}
