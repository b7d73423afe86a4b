// The reseller rule on exchanges made up here: an active run knows which of its keys each request
// carried, traffic does not. A 2xx to the client token on the reseller API is the hole the rule
// exists for; it used to read as "the client token is now accepted there", and the rule skipped.

import { operationById } from "@platform-api/spec";
import { describe, expect, it } from "vitest";
import { offsetList } from "../src/facts/offset.js";
import { keyFor } from "../src/facts/operations.js";
import { specModel } from "../src/facts/spec.js";
import { createJudge, type JudgeOptions } from "../src/judge/judge.js";
import type { ObservedExchange } from "../src/shared/exchange.js";
import { exchangeWith } from "./exchange-fixture.js";

const model = specModel();
const RULE = "auth.reseller.client-token-forbidden";
const reseller = model.operations.find((o) => keyFor(o) === "reseller" && o.pagination?.style === "offset");
if (!reseller) throw new Error("the spec has no offset list on the reseller API");
const resellerList = offsetList(reseller);
const me = operationById(model, "getCurrentClient");
const CLIENT = "1234$abcdefghijklmnop";

const exchange = (over: Partial<ObservedExchange> & { url: string }) => exchangeWith(CLIENT, over);

/** The client token accepted on the client API, then sent to the reseller list, answered `status`. */
function clientTokenOnReseller(
  status: number,
  role: ObservedExchange["tokenRole"],
  options: JudgeOptions = {},
) {
  const list = JSON.stringify({
    [resellerList.pagination.countField]: 0,
    [resellerList.pagination.itemsField]: [],
  });
  const exchanges = [
    exchange({ url: me.path, ...(role ? { tokenRole: "client" } : {}) }),
    exchange({
      url: `${reseller?.path}?${resellerList.limit.name}=1`,
      status,
      body: status === 200 ? list : '{"message":"no"}',
      at: 1_001_000,
      ...(role ? { tokenRole: role } : {}),
    }),
  ];
  const judge = createJudge(options);
  for (const e of exchanges) judge.judge(e);
  const result = judge.results({ strict: true }).find((r) => r.id === RULE);
  if (!result) throw new Error(`no result ${RULE}`);
  return result;
}

describe("an active run: the judge knows the client token", () => {
  it("a 2xx to the client token on the reseller API fails, with that exchange as evidence", () => {
    const result = clientTokenOnReseller(200, "client");
    expect(result.status, result.reason ?? "").toBe("failed");
    expect(result.severity).toBe("must");
    expect(result.reason).toMatch(/client token/);
    expect(result.reason).toMatch(/200/);
    expect(result.evidence).toHaveLength(1);
    expect(result.evidence[0]).toMatchObject({ method: "GET", status: 200 });
    expect(result.evidence[0]?.path.split("?")[0]).toBe(reseller?.path);
  });

  it("401 fails, 403 passes, any other refusal fails", () => {
    expect(clientTokenOnReseller(401, "client").status).toBe("failed");
    expect(clientTokenOnReseller(403, "client").status).toBe("passed");
    expect(clientTokenOnReseller(404, "client").status).toBe("failed");
  });

  it("the reseller token's 2xx on its own API is not this rule's", () => {
    expect(clientTokenOnReseller(200, "reseller").status).toBe("skipped");
  });
});

describe("traffic: the tokens' roles are not known", () => {
  it("a 401 to a token the client API accepted still fails, a 403 passes", () => {
    expect(clientTokenOnReseller(401, undefined).status).toBe("failed");
    expect(clientTokenOnReseller(403, undefined).status).toBe("passed");
  });

  it("a 2xx on the reseller API is not judged, and the result says so instead of 'not seen'", () => {
    const result = clientTokenOnReseller(200, undefined);
    expect(result.status).toBe("skipped");
    expect(result.reason).not.toBe("not seen in the traffic");
    expect(result.reason).toMatch(/roles? .*not known/);
    expect(result.reason).toMatch(/2xx/);
  });
});

describe("traffic with the keys in their variables: observe and verify know the roles", () => {
  it("a 2xx to the client key on the reseller API fails; the reseller key's passes by", () => {
    const roles = { client: CLIENT, reseller: "5678$qrstuvwxyzabcdef" };
    expect(clientTokenOnReseller(200, undefined, { roles }).status).toBe("failed");
    expect(clientTokenOnReseller(403, undefined, { roles }).status).toBe("passed");
    expect(clientTokenOnReseller(200, undefined, { roles: { reseller: CLIENT } }).status).toBe("skipped");
  });
});
