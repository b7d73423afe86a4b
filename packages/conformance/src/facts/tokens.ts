// How the run sends its keys: the header each security scheme names and what precedes the token
// there, as the seed's description states them (the spec model reads them from the schemes).
// Read from the model the package caches, not through spec.ts: discovery and the curl commands ask
// before a run needs the validators that spec.ts builds with it.

import { loadModel, type TokenScheme, tokenScheme } from "@platform-api/spec";

const seedModel = () => loadModel(undefined, { seed: true });

/** The client key's scheme: the one the spec's root `security` names. */
export function clientKeyScheme(): TokenScheme {
  const model = seedModel();
  return tokenScheme(model, model.defaultSecurity[0] ?? "");
}

/** The reseller key's scheme: the reseller admin portal's token. */
export const resellerKeyScheme = (): TokenScheme => tokenScheme(seedModel(), "ResellerAPIKey");
