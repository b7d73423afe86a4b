// A request as a curl command, for a reader to paste: fuzz's reproducers and the request a main
// run's failure was about. A token is written as "$VARIABLE" (the key's environment variable),
// never its value; every other word is shell-quoted.

import { authorization, type TokenScheme } from "@platform-api/spec";

/** A POSIX shell word: single-quoted, a quote inside written as '\''. */
export const shellWord = (text: string): string => `'${text.replace(/'/g, `'\\''`)}'`;

const isVariable = (name: string) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(name);

function checkVariable(variable: string): void {
  if (!isVariable(variable))
    throw new TypeError(`curl: "${variable}" is not an environment variable's name.`);
}

/**
 * The platform's Authorization header, as `scheme` sends a token, with the token as "$VARIABLE" (a
 * request that holds no token).
 */
export function authorizationWord(variable: string, scheme: TokenScheme): string {
  checkVariable(variable);
  return `-H "${scheme.headerName}: ${authorization(scheme, `$${variable}`)}"`;
}

/**
 * A header value in double quotes with each key in it (`keys`: its value and the variable it came
 * from) written as "$VARIABLE": the shell's own characters escaped first, so nothing else expands.
 */
export function headerWord(name: string, value: string, keys: { key: string; variable: string }[]): string {
  const quoted = (text: string) => text.replace(/[\\"$`]/g, (c) => `\\${c}`);
  let out = quoted(`${name}: ${value}`);
  for (const { key, variable } of keys) {
    checkVariable(variable);
    if (key !== "") out = out.split(quoted(key)).join(`$${variable}`);
  }
  return `-H "${out}"`;
}

/** `url`: the whole URL as sent. `--path-as-is`: a path segment ".." goes out as sent. */
export function curlCommand(request: {
  method: string;
  url: string;
  /** Header words (headerWord), the token's among them. */
  headers: string[];
  /** The body as sent (JSON), if any. */
  body?: string;
}): string {
  const parts = [
    "curl -sS -i --path-as-is",
    `-X ${shellWord(request.method)}`,
    shellWord(request.url),
    ...request.headers,
  ];
  if (request.body !== undefined)
    parts.push(`-H ${shellWord("Content-Type: application/json")}`, `--data-raw ${shellWord(request.body)}`);
  return parts.join(" ");
}
