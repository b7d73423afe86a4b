// A client shaped like the platform's own SDK, talking through `observe` to the simulator: the
// tests of issue #29 send its calls and read the judge's report of them. The SDK's habits
// (a list parameter once per value, the task list paged by offset, create_and_poll) are the tests';
// what every call needs (the token, JSON, the project and region it works in) is here.

import { type Simulator, startSimulator } from "@platform-api/simulator";
import { operationById } from "@platform-api/spec";
import { specModel } from "../src/facts/spec.js";
import type { Report } from "../src/shared/results.js";
import { type Observing, startObserving } from "../src/traffic/commands.js";
import { tokenPrefix } from "./token-prefix.js";

export interface SdkCall {
  method: string;
  path: string;
  query?: [string, string][];
  body?: unknown;
}

export interface SdkAnswer {
  status: number;
  headers: Headers;
  body: Record<string, unknown>;
}

export interface SdkSession {
  sim: Simulator;
  /** Each call as "METHOD path?query → status", in order. */
  statuses: string[];
  send(call: SdkCall): Promise<SdkAnswer>;
  /** The default project and an ACTIVE region, as the SDK's callers find them. */
  place(): Promise<{ project: number; region: number }>;
  /** Stops observing and gives the judge's report of the traffic (strict: a warning is a finding too). */
  report(target: string): Promise<Report>;
  close(): Promise<void>;
}

export async function startSdkSession(timeScale: number): Promise<SdkSession> {
  const sim = await startSimulator({ port: 0, timeScale, env: {} });
  let observing: Observing;
  try {
    observing = await startObserving({ upstream: sim.url, host: "127.0.0.1", port: 0 });
  } catch (error) {
    await sim.close();
    throw error;
  }
  const statuses: string[] = [];
  const send = async ({ method, path, query = [], body }: SdkCall): Promise<SdkAnswer> => {
    const url = new URL(path, observing.url);
    for (const [name, value] of query) url.searchParams.append(name, value);
    const response = await fetch(url, {
      method,
      headers: {
        Authorization: `${tokenPrefix}${sim.apiKey}`,
        Accept: "application/json",
        ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const answer = (await response.json()) as Record<string, unknown>;
    statuses.push(`${method} ${url.pathname}${url.search} → ${response.status}`);
    return { status: response.status, headers: response.headers, body: answer };
  };
  const model = specModel();
  return {
    sim,
    statuses,
    send,
    async place() {
      const projects = await send({ method: "GET", path: operationById(model, "listProjects").path });
      const regions = await send({ method: "GET", path: operationById(model, "listRegions").path });
      const project = (projects.body.results as { id: number; is_default: boolean }[]).find(
        (p) => p.is_default,
      );
      const region = (regions.body.results as { id: number; state: string }[]).find(
        (r) => r.state === "ACTIVE",
      );
      if (!project || !region) throw new Error("no default project or active region");
      return { project: project.id, region: region.id };
    },
    async report(target) {
      await observing.stop();
      return observing.judge.report({ target, startedAt: new Date(), options: {}, strict: true });
    },
    async close() {
      await observing.stop();
      await sim.close();
    },
  };
}
