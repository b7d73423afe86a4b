// How the client sends its two tokens: each security scheme's header and what precedes the token
// there, as the spec model reads them from the description (never typed here). Apart from
// operations.ts so that the redactor, which knows the header's form, needs nothing else of it.
import { RUNTIME_MODEL } from "@platform-api/spec/generated/runtime-model";
import type { TokenScheme } from "@platform-api/spec/model";

type SchemeName = keyof typeof RUNTIME_MODEL.securitySchemes;

/**
 * The security scheme of the reseller admin portal's token: an operation that admits it is sent
 * with `resellerApiKey`. Checked against the spec's scheme names at compile time.
 */
export const RESELLER_SCHEME = "ResellerAPIKey" satisfies SchemeName;

/** The customer portal's token (`apiKey`): the description's default scheme. */
export const API_KEY: TokenScheme = RUNTIME_MODEL.securitySchemes.APIKey;
/** The reseller admin portal's token (`resellerApiKey`). */
export const RESELLER_API_KEY: TokenScheme = RUNTIME_MODEL.securitySchemes[RESELLER_SCHEME];
