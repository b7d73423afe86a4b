import { loadBundle } from "@platform-api/spec";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { regionalQuotaNames } from "../src/world/spec-facts.js";
import type { RegionalQuotaName } from "../src/world/types.js";
import { createTestSimulator, type TestSimulator } from "./harness.js";

let t: TestSimulator;
beforeAll(async () => {
  t = await createTestSimulator();
});
afterAll(() => t.close());

/** The quotas of the virtual GPU quota check, as the spec names them. */
const QUOTAS = regionalQuotaNames(loadBundle());

const NETWORK = "0b7f6a8e-59a5-4c3e-9d6e-1f2a3b4c5d6e";
const SUBNET = "6d1e2f3a-4b5c-4d6e-8f7a-9b0c1d2e3f4a";
const check = (body: unknown, region = 76) =>
  t.call("POST", `/cloud/v3/gpu/virtual/1/${region}/check_limits`, { body });
const cluster = (servers_count: number) => ({
  flavor: "g3-ai-64-384-3000-l40s-48-2",
  servers_count,
  servers_settings: {
    interfaces: [
      { type: "external", ip_family: "ipv4", name: "eth0" },
      // As the platform documents a floating IP: on a subnet interface, floating_ip.source "new".
      {
        type: "subnet",
        network_id: NETWORK,
        subnet_id: SUBNET,
        floating_ip: { source: "new" },
        name: "eth1",
      },
      { type: "any_subnet", network_id: NETWORK, ip_family: "dual", name: "eth2" },
    ],
    // Source, size and type each, and an image's id: the platform requires them (the merged spec).
    volumes: [
      { size: 100, source: "image", type: "ssd_hiiops", image_id: "a2c4e6f8-1b3d-4f5a-9c7e-0d2f4b6a8c1e" },
      { size: 20, source: "new", type: "standard" },
    ],
  },
});

describe("virtual GPU quota check", () => {
  it("answers every quota's _limit, _requested and _usage as integers, _requested from flavor, server count and settings", async () => {
    const answer = await check(cluster(3));
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.body).sort()).toEqual(
      QUOTAS.flatMap((q) => ["_limit", "_requested", "_usage"].map((s) => q + s)).sort(),
    );
    expect(Object.values(answer.body).every(Number.isInteger)).toBe(true);
    expect(answer.body).toMatchObject({
      gpu_virtual_l40s_count_requested: 6,
      gpu_virtual_a100_count_requested: 0,
      volume_count_requested: 6,
      volume_size_requested: 360,
      external_ip_count_requested: 3,
      floating_count_requested: 3,
      // The platform's interface types have no baremetal_network (the merged spec refuses it).
      baremetal_network_count_requested: 0,
    });
  });

  it("counts a floating IP per server for each interface that asks for one as the platform documents (#29)", async () => {
    const subnetWithFloatingIp = (floating_ip: unknown) => ({
      flavor: "g3-ai-64-384-3000-l40s-48-2",
      servers_count: 2,
      servers_settings: {
        interfaces: [{ type: "subnet", network_id: NETWORK, subnet_id: SUBNET, floating_ip }],
      },
    });
    expect((await check(subnetWithFloatingIp({ source: "new" }))).body.floating_count_requested).toBe(2);
    expect((await check(subnetWithFloatingIp(undefined))).body.floating_count_requested).toBe(0);
    // An external interface has an address of its own.
    const elsewhere = await check({
      flavor: "g3-ai-64-384-3000-l40s-48-2",
      servers_count: 2,
      servers_settings: { interfaces: [{ type: "external", floating_ip: { source: "new" } }] },
    });
    expect(elsewhere.body).toMatchObject({ floating_count_requested: 0, external_ip_count_requested: 2 });
    // "floating" is no interface type the platform documents: the merged spec refuses it.
    const floating = await check({
      flavor: "g3-ai-64-384-3000-l40s-48-2",
      servers_count: 2,
      servers_settings: { interfaces: [{ type: "floating", ip_family: "ipv4" }] },
    });
    expect(floating.status).toBe(400);
  });

  it("grows _requested with the server count and leaves _limit and _usage alone", async () => {
    const one = (await check(cluster(1))).body;
    const four = (await check(cluster(4))).body;
    const grown: RegionalQuotaName[] = [
      "gpu_virtual_l40s_count",
      "volume_count",
      "volume_size",
      "external_ip_count",
      "floating_count",
    ];
    for (const q of grown) {
      expect(four[`${q}_requested`]).toBe(4 * one[`${q}_requested`]);
      expect(four[`${q}_limit`]).toBe(one[`${q}_limit`]);
      expect(four[`${q}_usage`]).toBe(one[`${q}_usage`]);
    }
  });

  it("takes _limit from the client's regional quota and _usage from the world", async () => {
    await t.admin("PUT", "/_sim/quotas/300112/38", { body: { gpu_virtual_l40s_count_limit: 5 } });
    const answer = (await check({ flavor: "g3-ai-32-192-1500-l40s-48-1", servers_count: 1 }, 38)).body;
    expect(answer.gpu_virtual_l40s_count_limit).toBe(5);
    expect(answer.volume_count_usage).toBe(2);
    expect(answer.volume_size_usage).toBe(80);
    expect(answer.volume_count_limit).toBe(3);
  });

  it("refuses a body without flavor, an unknown flavor and an unknown region", async () => {
    const missing = await check({ servers_count: 1 });
    expect(missing.status).toBe(400);
    expect(missing.body.message).toBe('Body field "flavor" is required.');
    const unknown = await check({ flavor: "g1-tiny", servers_count: 1 });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/flavors: g3-ai-32-192-1500-l40s-48-1/);
    expect((await check(cluster(1), 999)).status).toBe(404);
  });
});

describe("protection profiles", () => {
  it("reads a profile with its template and answers 404 for an unknown one", async () => {
    const profile = await t.call("GET", "/security/iaas/v2/profiles/4211");
    expect(profile.status).toBe(200);
    expect(profile.body.profile_template.fields?.length).toBeGreaterThan(0);
    expect((await t.call("GET", "/security/iaas/v2/profiles/1")).status).toBe(404);
    expect(
      (await t.call("GET", "/security/iaas/v2/profiles/4211", { token: "300113$sim-other-client-a4e1b7c9" }))
        .status,
    ).toBe(404);
  });

  it("updates and reads back", async () => {
    const update = await t.call("PUT", "/security/iaas/v2/profiles/4211", {
      body: {
        fields: [{ base_field: 31, value: "250000", field_value: 250000 }],
        site: "SG",
        management_type: "dynamic",
      },
    });
    expect(update.status).toBe(200);
    const read = (await t.call("GET", "/security/iaas/v2/profiles/4211")).body;
    expect(read).toEqual(update.body);
    expect(read.fields.find((f) => f.base_field === 31)).toMatchObject({
      value: "250000",
      field_value: 250000,
    });
    expect(read.fields.find((f) => f.base_field === 32)).toMatchObject({ value: "64" });
    expect(read).toMatchObject({ site: "SG", management_type: "dynamic" });
  });

  it("switches template and needs ip_address only for Universal", async () => {
    const without = await t.call("PUT", "/security/iaas/v2/profiles/4213", {
      body: { fields: [], profile_template: 1 },
    });
    expect(without.status).toBe(400);
    expect(without.body.message).toMatch(/"ip_address" is required for the Universal template/);
    const withIp = await t.call("PUT", "/security/iaas/v2/profiles/4213", {
      body: { fields: [], profile_template: 1, ip_address: "198.51.100.9" },
    });
    expect(withIp.status).toBe(200);
    expect(withIp.body.profile_template.name).toBe("Universal");
    expect(withIp.body.fields.map((f) => f.base_field)).toEqual([11]);
  });

  it("refuses fields the template does not have, values its validation_schema refuses, and a body without fields", async () => {
    const unknown = await t.call("PUT", "/security/iaas/v2/profiles/4211", {
      body: { fields: [{ base_field: 99, value: "1" }] },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toMatch(/base_field.*31 \(max_pps\), 32 \(max_udp_sessions\)/);
    const invalid = await t.call("PUT", "/security/iaas/v2/profiles/4211", {
      body: { fields: [{ base_field: 31, field_value: 0 }] },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.message).toMatch(/max_pps.*must be >= 1/);
    const none = await t.call("PUT", "/security/iaas/v2/profiles/4211", { body: { site: "ED" } });
    expect(none.status).toBe(400);
    expect(none.body.message).toBe('Body field "fields" is required.');
  });
});

describe("storage notification events", () => {
  it("stores the event per client and event name", async () => {
    const body = { name: "reaching_used_traffic", bytes: 5_000_000, storage_name: "media" };
    const answer = await t.call("PUT", "/storage/notifications/v1/event", { body });
    expect(answer.status).toBe(204);
    expect(answer.body).toBeUndefined();
    await t.call("PUT", "/storage/notifications/v1/event", {
      body: { ...body, bytes: 7 },
      query: { client_id: 300112 },
    });
    const stored = t.sim.store.world.storage_notification_events.filter(
      (e) => e.client_id === 300112 && e.event.name === "reaching_used_traffic",
    );
    expect(stored).toEqual([{ client_id: 300112, event: { ...body, bytes: 7 } }]);
  });

  it("requires name, refuses an unknown event kind, and another client's id", async () => {
    const missing = await t.call("PUT", "/storage/notifications/v1/event", { body: { bytes: 1 } });
    expect(missing.status).toBe(400);
    expect(missing.body?.message).toBe('Body field "name" is required.');
    const kind = await t.call("PUT", "/storage/notifications/v1/event", { body: { name: "reaching_moon" } });
    expect(kind.status).toBe(400);
    expect(kind.body?.message).toMatch(/"name" must be one of "reaching_used_space"/);
    const other = await t.call("PUT", "/storage/notifications/v1/event", {
      body: { name: "reaching_used_space" },
      query: { client_id: 300113 },
    });
    expect(other.status).toBe(403);
  });
});

describe("the API surface and nothing else", () => {
  it("answers 404 with a message for a path that is no operation", async () => {
    const answer = await t.call("GET", "/cloud/v1/flavors/1/76");
    expect(answer.status).toBe(404);
    expect(answer.body.message).toMatch(/No operation at GET \/cloud\/v1\/flavors\/1\/76/);
  });

  it("refuses a body that is not JSON with 400", async () => {
    const answer = await t.call("POST", "/cloud/v1/volumes/1/76", {
      headers: { "Content-Type": "application/json" },
      rawBody: "{size: 1",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toMatch(/^The request body has errors: .*JSON/);
  });
});
