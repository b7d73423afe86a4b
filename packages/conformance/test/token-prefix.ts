// What precedes a token in its header, as the spec model reads it from the client token's security
// scheme (the reseller's sends alike): the tests write and expect headers with it, never a copy.
import { loadModel, tokenScheme } from "@platform-api/spec";

const model = loadModel(undefined, { seed: true });
export const { tokenPrefix } = tokenScheme(model, model.defaultSecurity[0] ?? "");
