// How a token is sent, as the model reads it from each security scheme: the header and what
// precedes the token there. Every package sends and checks tokens with these values instead of
// typing them, so they are checked against the scheme files' own text, not a copy of it here.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parse } from "yaml";
import { RUNTIME_MODEL } from "../lib/generated/runtime-model.js";
import { authorization, buildModel, modelOf, operationTokenScheme, tokenScheme } from "../lib/index.js";
import { loadBundle, loadModel, objectAt } from "./bundle.js";

const dir = new URL("../components/security-schemes/", import.meta.url);
const files = readdirSync(dir).filter((f) => f.endsWith(".yaml"));
const model = loadModel();

describe("each security scheme's token header", () => {
  it("is the scheme file's header name and the prefix its description shows before the token", () => {
    expect(files.length).toBeGreaterThan(0);
    for (const file of files) {
      const name = file.replace(/\.yaml$/, "");
      const yaml = parse(readFileSync(new URL(file, dir), "utf8")) as {
        in: string;
        name: string;
        description: string;
      };
      const scheme = tokenScheme(model, name);
      expect(yaml.in, file).toBe("header");
      expect(scheme.headerName, file).toBe(yaml.name);
      // One word, one space: the description's own rule ("the word …, one space, then the token").
      expect(scheme.tokenPrefix, file).toMatch(/^\S+ $/);
      expect(yaml.description, file).toContain(`\`${yaml.name}: ${scheme.tokenPrefix}<`);
      expect(authorization(scheme, "1$t"), file).toBe(`${scheme.tokenPrefix}1$t`);
    }
  });

  it("is stated in words by the client token's scheme: the word, one space, then the token", () => {
    const [clientScheme] = model.defaultSecurity;
    const text = readFileSync(new URL(`${clientScheme}.yaml`, dir), "utf8");
    const word = tokenScheme(model, clientScheme ?? "").tokenPrefix.trim();
    expect(text).toContain(`the word \`${word}\`, one space,\n  then the token`);
  });

  it("is the same in the runtime model the client bundles", () => {
    for (const file of files) {
      const name = file.replace(/\.yaml$/, "");
      expect(RUNTIME_MODEL.securitySchemes[name as keyof typeof RUNTIME_MODEL.securitySchemes], file).toEqual(
        tokenScheme(model, name),
      );
    }
  });

  it("stops the model's build when a header scheme's description shows no prefix", () => {
    const doc = structuredClone(loadBundle());
    const [name] = model.defaultSecurity;
    const scheme = objectAt(doc, "components", "securitySchemes", name ?? "");
    scheme.description = "Send the token in the header.";
    expect(() => buildModel(doc)).toThrow(
      `Security scheme ${name} sends its token in the ${scheme.name} header`,
    );
  });

  it("refuses a scheme the description does not have", () => {
    expect(() => tokenScheme(model, "NoSuchScheme")).toThrow("no security scheme NoSuchScheme");
  });
});

describe("an operation's token scheme", () => {
  it("is the first of its schemes that sends a token in a header: each operation's own", () => {
    for (const op of model.operations)
      expect(operationTokenScheme(model, op), op.key).toEqual(tokenScheme(model, op.security[0] ?? ""));
    // Both schemes are used, so the test could tell them apart were their headers to differ.
    expect(new Set(model.operations.map((op) => op.security[0])).size).toBeGreaterThan(1);
  });

  it("is refused, naming the operation, when none of its schemes sends a token in a header", () => {
    const op = { key: "GET /nowhere", security: ["NoSuchScheme"] };
    expect(() => operationTokenScheme(model, op)).toThrow("GET /nowhere: no security scheme of NoSuchScheme");
  });
});

describe("modelOf", () => {
  it("builds a description's model once, and another description's its own", () => {
    const doc = loadBundle();
    expect(modelOf(doc)).toBe(modelOf(doc));
    expect(modelOf(doc)).toEqual(buildModel(doc));
    expect(modelOf(loadBundle())).not.toBe(modelOf(doc));
  });
});
