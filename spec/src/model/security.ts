// How a token is sent, read once from each security scheme: the header that carries it and what
// precedes the token there. The description states the prefix in words only (the scheme's
// description shows "`Authorization: APIKey <API_KEY>`"), so it is read from that text, and a
// scheme that sends its token in a header without showing the prefix stops the model's build:
// every program that sends or checks a token would otherwise have to type it again.
import { type JsonObject, resolveRef } from "../ref.js";
import { isObject } from "./json.js";
import type { OperationModel, SecuritySchemeModel, SpecModel } from "./types.js";

/** A scheme whose token goes in a header, as a program that sends or checks one needs it. */
export interface TokenScheme {
  /** The header that carries the token ("Authorization"; its name is case-insensitive in HTTP). */
  readonly headerName: string;
  /** What precedes the token in the header, as the scheme's description shows it ("APIKey "). */
  readonly tokenPrefix: string;
}

export function readSecuritySchemes(doc: JsonObject): SecuritySchemeModel[] {
  const components = isObject(doc.components) ? doc.components : {};
  const schemes = isObject(components.securitySchemes) ? components.securitySchemes : {};
  return Object.entries(schemes).map(([name, raw]) => {
    const s = resolveRef<JsonObject>(doc, raw) ?? {};
    const headerName = s.in === "header" && typeof s.name === "string" ? s.name : undefined;
    return {
      name,
      type: String(s.type ?? ""),
      ...(typeof s.in === "string" ? { in: s.in } : {}),
      ...(typeof s.name === "string" ? { headerName: s.name } : {}),
      ...(headerName ? { tokenPrefix: shownPrefix(name, headerName, s.description) } : {}),
    };
  });
}

/** The prefix the description shows before the token: "`Authorization: APIKey <API_KEY>`" gives "APIKey ". */
function shownPrefix(name: string, headerName: string, description: unknown): string {
  const header = headerName.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  const shown = new RegExp(`\`${header}: (\\S+ )<[^>]+>\``).exec(
    typeof description === "string" ? description : "",
  );
  if (!shown?.[1])
    throw new Error(
      `Security scheme ${name} sends its token in the ${headerName} header, but its description does not show the header as \`${headerName}: <word> <TOKEN>\`: what precedes the token is stated nowhere else.`,
    );
  return shown[1];
}

/** The named scheme, when it sends its token in a header; throws otherwise. */
export function tokenScheme(model: Pick<SpecModel, "securitySchemes">, name: string): TokenScheme {
  const scheme = model.securitySchemes.find((s) => s.name === name);
  if (scheme?.headerName === undefined || scheme.tokenPrefix === undefined)
    throw new Error(
      `The description has no security scheme ${name} that sends a token in a header; it has ${model.securitySchemes.map((s) => s.name).join(", ") || "none"}.`,
    );
  return { headerName: scheme.headerName, tokenPrefix: scheme.tokenPrefix };
}

/** How an operation's token is sent: the first of its security schemes that sends one in a header. */
export function operationTokenScheme(
  model: Pick<SpecModel, "securitySchemes">,
  operation: Pick<OperationModel, "key" | "security">,
): TokenScheme {
  const name = operation.security.find((n) =>
    model.securitySchemes.some((s) => s.name === n && s.headerName),
  );
  if (name === undefined)
    throw new Error(
      `${operation.key}: no security scheme of ${operation.security.join(", ") || "none"} sends a token in a header.`,
    );
  return tokenScheme(model, name);
}

/** The header's value that carries `token` by `scheme` ("APIKey 2971$…"). */
export const authorization = (scheme: TokenScheme, token: string): string => `${scheme.tokenPrefix}${token}`;
