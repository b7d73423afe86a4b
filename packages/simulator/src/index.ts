export { type Clock, withoutOffset } from "./clock.js";
export { ApiError } from "./errors.js";
export { type Faults, parseFaults } from "./faults.js";
export { EXTENSION_HEADER } from "./handlers/extensions.js";
export { SIMULATOR_HEADER, type SimulatorHints, simulatorHints } from "./hints.js";
export { DEFAULTS, type SimulatorOptions } from "./options.js";
export { createSimulator, type Simulator, startSimulator } from "./server.js";
export type { Caller, Store } from "./store.js";
export { VERSION } from "./version.js";
export {
  createDefaultWorld,
  DEFAULT_CLIENT_ID,
  DEFAULT_RESELLER_ID,
  DEFAULT_TOKENS,
} from "./world/default-world.js";
export { checkWorld, loadWorldFile } from "./world/load-world.js";
export { describeToken, type TokenInfo } from "./world/tokens.js";
export type * from "./world/types.js";
