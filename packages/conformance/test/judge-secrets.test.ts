// The judge's secrets (src/judge/secrets.ts): each one learned is redacted from then on, those
// known before any exchange from the start, and past the bound only token-shaped text still is.

import { describe, expect, it } from "vitest";
import { createSecrets } from "../src/judge/secrets.js";
import { REDACTED } from "../src/shared/redact.js";

const secrets = (limit = 4, known: string[] = []) =>
  createSecrets({ limit, known, env: { SOME_KEY: "usage-key-value" }, keyVariables: ["SOME_KEY"] });

describe("secrets", () => {
  it("redacts a secret from the moment it is learned", () => {
    const s = secrets();
    expect(s.redact("said alpha-secret-one")).toBe("said alpha-secret-one");
    s.learn("alpha-secret-one");
    expect(s.redact("said alpha-secret-one")).toBe(`said ${REDACTED}`);
  });

  it("redacts the keys known before any exchange and the key variables' values from the start", () => {
    const s = secrets(4, ["known-run-key"]);
    expect(s.redact("known-run-key usage-key-value")).not.toMatch(/known-run-key|usage-key-value/);
  });

  it("learns at most `limit` distinct secrets (one learned again is not counted twice)", () => {
    const s = secrets(2);
    s.learn("alpha-secret-one");
    s.learn("alpha-secret-one");
    s.learn("bravo-secret-two");
    s.learn("charlie-secret-three");
    expect(s.redact("alpha-secret-one bravo-secret-two")).toBe(`${REDACTED} ${REDACTED}`);
    expect(s.redact("charlie-secret-three")).toBe("charlie-secret-three");
    // A platform token is still caught by its shape.
    s.learn("1234$delta-secret-four");
    expect(s.redact("1234$delta-secret-four")).not.toContain("delta-secret-four");
  });
});
