// Starts a simulator for a test and calls it over real HTTP. Every answer of the API surface is
// validated against the bundled spec; an answer that breaks the spec fails the test that saw it.

import { createSpecValidator, loadBundle } from "@platform-api/spec";
import { expect } from "vitest";
import { type Simulator, type SimulatorOptions, startSimulator } from "../src/index.js";

const doc = loadBundle();
const validator = createSpecValidator(doc);
const templates = Object.keys(doc.paths as object).map((template) => ({
  template,
  pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, "[^/]+")}$`),
}));

export interface Answer {
  status: number;
  headers: Headers;
  body: any;
}

export interface CallOptions {
  /** Token to send as `APIKey <token>`; null sends no Authorization header. Default: the client token. */
  token?: string | null;
  headers?: Record<string, string>;
  query?: Record<string, string | number | (string | number)[]>;
  body?: unknown;
  /** Sent as is instead of `body` (for bodies that are not JSON). */
  rawBody?: string;
}

export interface TestSimulator {
  sim: Simulator;
  call(method: string, path: string, options?: CallOptions): Promise<Answer>;
  /** Operation ids whose responses were seen (and validated). */
  seen: Set<string>;
  close(): Promise<void>;
}

export async function startTestSimulator(options: SimulatorOptions = {}): Promise<TestSimulator> {
  const sim = await startSimulator({ port: 0, env: {}, ...options });
  const seen = new Set<string>();
  const call = async (
    method: string,
    path: string,
    { token, headers = {}, query, body, rawBody }: CallOptions = {},
  ) => {
    const url = new URL(path, sim.url);
    for (const [name, value] of Object.entries(query ?? {})) {
      for (const v of Array.isArray(value) ? value : [value]) url.searchParams.append(name, String(v));
    }
    const sentToken = token === undefined ? sim.apiKey : token;
    const response = await fetch(url, {
      method,
      headers: {
        ...(sentToken === null ? {} : { Authorization: `APIKey ${sentToken}` }),
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
        ...headers,
      },
      body: rawBody ?? (body === undefined ? undefined : JSON.stringify(body)),
      signal: AbortSignal.timeout(10_000),
    });
    const text = await response.text();
    const parsed = text === "" ? undefined : JSON.parse(text);
    const template = templates.find((t) => t.pattern.test(url.pathname))?.template;
    if (template && !path.startsWith("/_sim")) {
      const operation = (doc.paths as any)[template][method.toLowerCase()];
      if (operation) seen.add(operation.operationId);
      const problems = validator.validateResponse({
        method,
        path: template,
        status: response.status,
        contentType: response.headers.get("content-type"),
        body: parsed,
        hasBody: text !== "",
      });
      expect(problems, `${method} ${url.pathname}${url.search} answered ${response.status} off-spec`).toEqual(
        [],
      );
    }
    return { status: response.status, headers: response.headers, body: parsed };
  };
  return { sim, call, seen, close: () => sim.close() };
}

/** GETs a whole offset list by increasing offset by limit until offset >= count. */
export async function walkOffsetList(
  t: TestSimulator,
  path: string,
  limit: number,
  query: CallOptions["query"] = {},
  token?: string,
) {
  const items: any[] = [];
  const counts: number[] = [];
  for (let offset = 0, pages = 0; pages < 100; pages++, offset += limit) {
    const answer = await t.call("GET", path, { query: { ...query, limit, offset }, token });
    expect(answer.status).toBe(200);
    expect(answer.body.results.length).toBeLessThanOrEqual(limit);
    counts.push(answer.body.count);
    items.push(...answer.body.results);
    if (offset + limit >= answer.body.count) break;
  }
  return { items, counts };
}
