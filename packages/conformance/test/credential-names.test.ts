// Credentials a client sends that the suite knows nothing of (no key variable names them): a
// header, a query parameter or a body field whose name says it holds one. `observe --record`
// writes none of their values into the HAR, and no report form (report.json, junit.xml, report.md,
// report.html) holds one, though the upstream here echoes the whole request back in an answer the
// judge fails (so its excerpt is in the reports). The names are listed once (src/facts/credential-names.ts)
// and in the README.

import { readFileSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { join } from "node:path";
import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import {
  CREDENTIAL_FIELDS,
  CREDENTIAL_HEADER_WORDS,
  CREDENTIAL_PARAMETERS,
  hideCredentials,
  isCredentialHeader,
} from "../src/facts/credential-names.js";
import { specModel } from "../src/facts/spec.js";
import { loopbackServers } from "./loopback-servers.js";
import { observeRecording } from "./observe-in-process.js";
import { tokenPrefix } from "./token-prefix.js";

const model = specModel();
const ACCOUNT = operationById(model, "getCurrentClient").path;
const CREATE_VOLUME = operationById(model, "createVolume");

/** Values no key variable names and no token shape catches: only their names give them away. */
const SECRETS = {
  header: "hdr-Zq81-never-shown",
  apiKeyParam: "qry-Kp27-never-shown",
  tokenParam: "qry-Tk55-never-shown",
  password: "body-Pw93-never-shown",
  clientSecret: "body-Cs14-never-shown",
  formPassword: "form-Fp66-never-shown",
  cookie: "cookie-Ck02-never-shown",
};

describe("hideCredentials", () => {
  it("hides the values of named query parameters, JSON fields at any depth and form fields", () => {
    expect(hideCredentials("GET /x?limit=1&api_key=abc&Token=def#f")).toBe(
      "GET /x?limit=1&api_key=***&Token=***#f",
    );
    expect(hideCredentials('{"a":{"b":[{"Password" : "p\\"q", "n": 1, "secret": 42}]}}')).toBe(
      '{"a":{"b":[{"Password" : "***", "n": 1, "secret": ***}]}}',
    );
    expect(hideCredentials("user=a&password=b%20c&x=1")).toBe("user=a&password=***&x=1");
    // A value an excerpt cut keeps its cut note.
    expect(hideCredentials('{"password":"abcdef… (cut: 900 characters in all)')).toBe(
      '{"password":"***… (cut: 900 characters in all)',
    );
    // Names that only hold a credential's word are not a credential's: a monkey is no key.
    expect(hideCredentials("/x?monkey=1&keys_only=2")).toBe("/x?monkey=1&keys_only=2");
  });

  it("names headers by their words, and lists every name once", () => {
    for (const name of [
      "Authorization",
      "X-Auth-Token",
      "x-api-key",
      "Cookie",
      "Set-Cookie",
      "X-Amz-Security-Token",
    ])
      expect(isCredentialHeader(name)).toBe(true);
    for (const name of ["Content-Type", "Accept", "X-Request-Id"])
      expect(isCredentialHeader(name)).toBe(false);
    for (const list of [CREDENTIAL_HEADER_WORDS, CREDENTIAL_PARAMETERS, CREDENTIAL_FIELDS])
      expect(new Set(list).size).toBe(list.length);
  });

  it("the README lists every name", () => {
    const readme = readFileSync(new URL("../README.md", import.meta.url), "utf8");
    for (const name of [...CREDENTIAL_HEADER_WORDS, ...CREDENTIAL_PARAMETERS, ...CREDENTIAL_FIELDS])
      expect(readme).toContain(`\`${name}\``);
  });
});

const { listen } = loopbackServers();

function send(url: string, method: string, path: string, headers: Record<string, string>, body?: string) {
  const target = new URL(url);
  return new Promise<number>((resolve, reject) => {
    const req = httpRequest({ host: target.hostname, port: target.port, method, path, headers }, (res) => {
      res.resume();
      res.on("end", () => resolve(res.statusCode ?? 0));
    });
    req.on("error", reject);
    req.end(body);
  });
}

describe("observe --record of a client sending credentials by name", () => {
  it("writes none of their values into the HAR or any report form", async () => {
    // Echoes the request (URL, headers, body) back: an answer the schema refuses, so its excerpt and
    // the request's body are the reports' evidence.
    const upstream = await listen(
      createServer((req, res) => {
        const chunks: Buffer[] = [];
        req.on("data", (c: Buffer) => chunks.push(c));
        req.on("end", () => {
          const sent = Buffer.concat(chunks).toString("utf8");
          res.writeHead(200, {
            "content-type": "application/json",
            "x-auth-token": SECRETS.header,
            "set-cookie": `session=${SECRETS.cookie}; HttpOnly`,
          });
          res.end(
            JSON.stringify({
              url: req.url,
              body: sent.startsWith("{") ? JSON.parse(sent) : sent,
              headers: req.headers,
            }),
          );
        });
      }),
    );
    const { dir, lines, url, run, stop } = observeRecording(upstream, "credential-names-");
    const proxy = await url;
    const headers = {
      Authorization: `${tokenPrefix}1234$observe-credential-names-key`,
      "X-Auth-Token": SECRETS.header,
      Cookie: `session=${SECRETS.cookie}`,
    };
    await send(
      proxy,
      "GET",
      `${ACCOUNT}?api_key=${SECRETS.apiKeyParam}&token=${SECRETS.tokenParam}`,
      headers,
    );
    const path = CREATE_VOLUME.path.replace("{project_id}", "1").replace("{region_id}", "1");
    await send(
      proxy,
      "POST",
      `${path}?token=${SECRETS.tokenParam}`,
      { ...headers, "content-type": "application/json" },
      JSON.stringify({
        name: "v",
        source: "new-volume",
        size: 1,
        auth: { password: SECRETS.password, client_secret: SECRETS.clientSecret },
      }),
    );
    await send(
      proxy,
      "POST",
      path,
      { ...headers, "content-type": "application/x-www-form-urlencoded" },
      `name=v&password=${SECRETS.formPassword}`,
    );
    stop();
    const result = await run;
    expect(result.report?.traffic?.exchanges).toBe(3);
    const har = readFileSync(join(dir, "traffic.har"), "utf8");
    const written = Object.fromEntries(
      ["report.json", "junit.xml", "report.md", "report.html"].map((f) => [
        f,
        readFileSync(join(dir, "report", f), "utf8"),
      ]),
    );
    // The reports do show the exchanges: the evidence is there, its credentials are not.
    expect(written["report.json"]).toContain("api_key=***");
    expect(har).toContain("api_key=***");
    expect(har).toMatch(/"name":"X-Auth-Token","value":"\[credential\]"/);
    for (const [name, text] of Object.entries({ har, lines: lines.join("\n"), ...written }))
      for (const secret of Object.values(SECRETS))
        expect(text.includes(secret), `${secret} in ${name}`).toBe(false);
  }, 60_000);
});
