// What fuzz judges of a request, from the spec alone (src/fuzz/classify.ts), and its checks on the
// answers (src/fuzz/checks.ts): allowed values are allowed, forbidden ones forbidden, and what the
// spec leaves open (x-unspecified, an empty value, an integer in no digits, past 2^53) is neither,
// so no check cries wolf on it. Every value is read from the spec model.

import { type OperationModel, operationById, requireParameter } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { requestExample, specModel } from "../src/facts/spec.js";
import { FUZZ_CHECKS } from "../src/fuzz/checks.js";
import { classify } from "../src/fuzz/classify.js";
import { newRequest } from "../src/fuzz/request.js";
import type { FuzzRequest } from "../src/shared/finding.js";

const model = specModel();
const op = (id: string) => operationById(model, id);
const regions = op("listRegions");
const aiTasks = op("listAiTasks");
const quota = op("listQuotaLimitRequests");
const event = op("putStorageNotificationEvent");
const checkLimits = op("checkVirtualGpuClusterLimits");
const limit = requireParameter(regions, "limit", "query");
const offset = requireParameter(regions, "offset", "query");
const aiStatus = requireParameter(aiTasks, "status", "query");
const quotaStatus = requireParameter(quota, "status", "query");

const place = { project_id: "1", region_id: "2" };
const ask = (operation: OperationModel, query: [string, string][], body?: unknown): FuzzRequest => ({
  ...newRequest(
    operation,
    Object.fromEntries(
      operation.parameters
        .filter((p) => p.in === "path")
        .map((p) => [p.name, place[p.name as keyof typeof place] ?? "1"]),
    ),
    [],
  ),
  query,
  ...(body === undefined ? {} : { body }),
});
const standing = (request: FuzzRequest, operation = op(request.operationId)) => {
  const c = classify(operation, request);
  return c.forbidden.length > 0 ? "forbidden" : c.allowed ? "allowed" : "open";
};
const check = (id: string) => {
  const found = FUZZ_CHECKS.find((c) => c.id === id);
  if (!found) throw new Error(`no check ${id}`);
  return found;
};
const judge = (id: string, request: FuzzRequest, status: number | null, text = "", sent = 1) => {
  const operation = op(request.operationId);
  return check(id).judge({
    operation,
    request,
    classification: classify(operation, request),
    status,
    text,
    sent,
  });
};

describe("what the spec says of a request", () => {
  it("a list's bounds: inside allowed, one past either forbidden", () => {
    const { minimum = 1, maximum = 1 } = limit;
    expect(standing(ask(regions, [[limit.name, String(maximum)]]))).toBe("allowed");
    expect(standing(ask(regions, [[limit.name, String(minimum)]]))).toBe("allowed");
    expect(standing(ask(regions, [[limit.name, String(maximum + 1)]]))).toBe("forbidden");
    expect(standing(ask(regions, [[limit.name, String(minimum - 1)]]))).toBe("forbidden");
    expect(standing(ask(regions, [[offset.name, String((offset.minimum ?? 0) - 1)]]))).toBe("forbidden");
    expect(standing(ask(regions, [[limit.name, "abc"]]))).toBe("forbidden");
    expect(standing(ask(regions, [[limit.name, "1.5"]]))).toBe("forbidden");
  });

  it("leaves open what a server's parser decides: an empty value, an integer in no digits, one past 2^53", () => {
    for (const value of ["", "1e3", "1.0", "+1", String(2n ** 60n)])
      expect(standing(ask(regions, [[limit.name, value]])), value).toBe("open");
  });

  it("enums: each value allowed, one outside or in another case forbidden; a repeated parameter takes several", () => {
    for (const value of aiStatus.enum ?? [])
      expect(standing(ask(aiTasks, [[aiStatus.name, String(value)]]))).toBe("allowed");
    expect(standing(ask(aiTasks, [[aiStatus.name, `${aiStatus.enum?.[0]}_not_listed`]]))).toBe("forbidden");
    expect(standing(ask(aiTasks, [[aiStatus.name, String(aiStatus.enum?.[0]).toLowerCase()]]))).toBe(
      "forbidden",
    );
    const values = (quotaStatus.items?.enum ?? []).map(String);
    expect(values.length).toBeGreaterThan(1);
    expect(
      standing(
        ask(
          quota,
          values.map((v) => [quotaStatus.name, v]),
        ),
      ),
    ).toBe("allowed");
  });

  it("a parameter the spec marks x-unspecified is open, and named so for the list rules", () => {
    const aiLimit = requireParameter(aiTasks, "limit", "query");
    const c = classify(aiTasks, ask(aiTasks, [[aiLimit.name, "5"]]));
    expect(c.allowed).toBe(false);
    expect(c.forbidden).toEqual([]);
    expect(c.openNames).toEqual([aiLimit.name]);
    // A parameter the spec does not describe: nothing allowed either.
    expect(standing(ask(regions, [["not_a_parameter", "1"]]))).toBe("open");
  });

  it("bodies: a required field left out or of the wrong type is forbidden; one touching x-unspecified is open", () => {
    const example = requestExample(event) as Record<string, unknown>;
    const { name: _left, ...withoutName } = example;
    expect(standing(ask(event, [], example))).toBe("open");
    expect(standing(ask(event, [], withoutName))).toBe("forbidden");
    expect(standing(ask(event, [], { ...example, name: "not_an_event" }))).toBe("forbidden");
    const limits = requestExample(checkLimits) as Record<string, unknown>;
    const bare = { flavor: limits.flavor, servers_count: limits.servers_count };
    expect(standing(ask(checkLimits, [], bare))).toBe("allowed");
    expect(standing(ask(checkLimits, [], { ...bare, servers_count: "two" }))).toBe("forbidden");
    expect(standing(ask(checkLimits, [], { ...bare, servers_count: 1.5 }))).toBe("forbidden");
    // What a lenient server reads as the right type ("2" for 2, 7 for "7") is its choice: open.
    expect(standing(ask(checkLimits, [], { ...bare, servers_count: String(bare.servers_count) }))).toBe(
      "open",
    );
    expect(standing(ask(checkLimits, [], { ...bare, flavor: 7 }))).toBe("open");
    expect(standing(ask(checkLimits, []))).toBe("forbidden");
  });
});

describe("fuzz's checks", () => {
  const fine = ask(regions, []);
  it("no-server-error: a 5xx (its retry's too) or no answer is a finding; a 4xx is not", () => {
    expect(judge("fuzz.no-server-error", fine, 500, "", 2)).toMatch(/500 again when retried/);
    expect(judge("fuzz.no-server-error", fine, 503)).toMatch(/answered 503/);
    expect(judge("fuzz.no-server-error", fine, null, "connection reset")).toMatch(
      /no answer \(connection reset\)/,
    );
    expect(judge("fuzz.no-server-error", fine, 404)).toBeNull();
  });

  it("forbidden-body-refused: a forbidden body accepted is a finding, refused with any 4xx is not", () => {
    const bad = ask(event, [], { ...(requestExample(event) as object), name: "not_an_event" });
    expect(judge("fuzz.forbidden-body-refused", bad, 204)).toMatch(/accepted with 204/);
    expect(judge("fuzz.forbidden-body-refused", bad, 400)).toBeNull();
    expect(judge("fuzz.forbidden-body-refused", bad, 422)).toBeNull();
    expect(judge("fuzz.forbidden-body-refused", fine, 200)).toBeUndefined();
  });

  it("forbidden-parameter-refused: a value outside an enum accepted is a finding; an offset list's limit past its bounds may be clamped", () => {
    const outside = ask(aiTasks, [[aiStatus.name, `${aiStatus.enum?.[0]}_not_listed`]]);
    expect(judge("fuzz.forbidden-parameter-refused", outside, 200)).toMatch(/accepted with 200/);
    expect(judge("fuzz.forbidden-parameter-refused", outside, 400)).toBeNull();
    const past = ask(regions, [[limit.name, String((limit.maximum ?? 0) + 1)]]);
    expect(judge("fuzz.forbidden-parameter-refused", past, 200)).toBeUndefined();
    expect(check("fuzz.forbidden-parameter-refused").severity).toBe("should");
  });

  it("allowed-accepted: a 400 naming a parameter sent as the spec allows is a finding; one naming none, or a request left open, is not", () => {
    const value = String((quotaStatus.items?.enum ?? [])[0]);
    const allowed = ask(quota, [[quotaStatus.name, value]]);
    expect(judge("fuzz.allowed-accepted", allowed, 400, `{"detail":"${quotaStatus.name}: invalid"}`)).toMatch(
      new RegExp(`naming ${quotaStatus.name}`),
    );
    expect(
      judge("fuzz.allowed-accepted", allowed, 400, `{"detail":"${quotaStatus.name}es are off"}`),
    ).toBeNull();
    expect(judge("fuzz.allowed-accepted", allowed, 200)).toBeNull();
    // A free id may name nothing (a client of no one): a 400 naming it is the server's call.
    const clientId = requireParameter(quota, "client_id", "query");
    const someClient = ask(quota, [[clientId.name, "12345"]]);
    expect(standing(someClient)).toBe("allowed");
    expect(
      judge("fuzz.allowed-accepted", someClient, 400, `{"detail":"${clientId.name}: no such client"}`),
    ).toBeNull();
    const page = ask(regions, [[limit.name, String(limit.maximum)]]);
    expect(judge("fuzz.allowed-accepted", page, 400, `${limit.name} is too large`)).toMatch(/naming limit/);
    expect(judge("fuzz.allowed-accepted", ask(regions, [[limit.name, ""]]), 400, limit.name)).toBeUndefined();
  });
});
