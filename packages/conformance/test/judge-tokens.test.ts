// The judge's tokens (src/judge/tokens.ts), fed Authorization headers made up here: each token's
// label and standing, the role traffic does not say, and what it forgets past its bound.

import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { keyFor } from "../src/facts/operations.js";
import { specModel } from "../src/facts/spec.js";
import { createTokens } from "../src/judge/tokens.js";
import { exchangeWith } from "./exchange-fixture.js";

const authorization = (token: string) => exchangeWith(token, { url: "/" }).requestHeaders.authorization;
const scheme = authorization("x")?.split(" ")[0];
const api = keyFor(operationById(specModel(), "listRegions"));

function tokens(limit = 4, over: { credentialsRecorded?: boolean; roles?: { client?: string } } = {}) {
  const learned: string[] = [];
  const t = createTokens({
    limit,
    credentialsRecorded: over.credentialsRecorded ?? true,
    roles: over.roles ?? {},
    learn: (token) => learned.push(token),
  });
  return { t, learned };
}

describe("tokens", () => {
  it("labels each token in the order first seen, and learns it once", () => {
    const { t, learned } = tokens();
    expect(t.of(authorization("1$first-token"), undefined).auth.token).toBe("token 1");
    expect(t.of(authorization("2$second-token"), undefined).auth.token).toBe("token 2");
    expect(t.of(authorization("1$first-token"), undefined).auth).toMatchObject({ scheme, token: "token 1" });
    expect(t.label("1$first-token")).toBe("token 1");
    expect(learned).toEqual(["1$first-token", "2$second-token"]);
  });

  it("a request without a header, or a scheme alone, has no token", () => {
    const { t } = tokens(4, { credentialsRecorded: false });
    expect(t.of(undefined, undefined)).toEqual({
      auth: { recorded: false, scheme: undefined, token: undefined, acceptedBy: new Set(), role: undefined },
    });
    expect(t.of(scheme, undefined).auth).toMatchObject({ scheme, token: undefined });
  });

  it("a token's standing grows as the judge learns it; each request sees the standing before it", () => {
    const { t } = tokens();
    const first = t.of(authorization("1$first-token"), undefined);
    first.acceptedBy?.add(api);
    expect(first.auth.acceptedBy).toEqual(new Set());
    expect(t.of(authorization("1$first-token"), undefined).auth.acceptedBy).toEqual(new Set([api]));
  });

  it("a known key's role is told; one the exchange names wins", () => {
    const { t } = tokens(4, { roles: { client: "1$client-key" } });
    expect(t.of(authorization("1$client-key"), undefined).auth.role).toBe("client");
    expect(t.of(authorization("1$client-key"), "reseller").auth.role).toBe("reseller");
    expect(t.of(authorization("2$other-key"), undefined).auth.role).toBeUndefined();
  });

  it("past `limit` tokens, a new one is labelled anew each time, never given a standing, and counted", () => {
    const { t, learned } = tokens(1);
    t.of(authorization("1$kept-token"), undefined);
    const late = t.of(authorization("2$late-token"), undefined);
    late.acceptedBy?.add(api);
    const again = t.of(authorization("2$late-token"), undefined);
    expect([late.auth.token, again.auth.token]).toEqual(["token 2", "token 3"]);
    expect(again.auth.acceptedBy).toEqual(new Set());
    expect(t.dropped).toBe(2);
    // Still redacted, however many there are: the redactor dedupes.
    expect(learned).toEqual(["1$kept-token", "2$late-token", "2$late-token"]);
    expect(t.of(authorization("1$kept-token"), undefined).auth.token).toBe("token 1");
  });
});
