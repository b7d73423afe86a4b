// `pnpm pack:all` and `pnpm release:dry` agree on versions: the tarballs pack:all leaves are at
// the versions changesets computes from the pending changesets (the ones release:dry's release
// publishes, which it checks against releaseVersions at run time), not at the working tree's, and
// our packages' dependencies on each other name the versions packed beside them, so that
// `npm install ./packed/*.tgz` resolves them from the folder. The client and the spec are the
// pair packed here (one depends on the other); packing reads what the tree built (turbo builds
// both before this file runs). Installing the folder needs the registry for the other
// dependencies: `pnpm pack:all --check` does it, not this test.
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Packed, packAll } from "../pack-all.mjs";
import { releaseVersions } from "../release-versions.mjs";
import { root } from "./workspace-sources.js";

/** One file of a .tgz, read with the tar format's 512-byte headers (ustar: name, size, prefix). */
function fileInTarball(tarball: string, wanted: string): string {
  const tar = gunzipSync(readFileSync(tarball));
  for (let at = 0; at + 512 <= tar.length; ) {
    const field = (from: number, to: number) =>
      tar
        .subarray(at + from, at + to)
        .toString("latin1")
        .replace(/\0.*$/s, "");
    const name = [field(345, 500), field(0, 100)].filter(Boolean).join("/");
    const size = Number.parseInt(field(124, 136).trim() || "0", 8);
    if (name === wanted) return tar.subarray(at + 512, at + 512 + size).toString("utf8");
    at += 512 + Math.ceil(size / 512) * 512;
  }
  throw new Error(`${wanted} is not in ${tarball}`);
}

const PAIR = ["@platform-api/spec", "@platform-api/client"];
let out: string;
let packed: Packed[];
let expected: Map<string, string>;
beforeAll(async () => {
  out = mkdtempSync(join(tmpdir(), "platform-api-pack-all-test-"));
  packed = packAll(root, out, { only: PAIR });
  expected = await releaseVersions(root);
}, 120_000);
afterAll(() => rmSync(out, { recursive: true, force: true }));

const manifestOf = (name: string) => {
  const tarball = packed.find((p) => p.name === name)?.tarball ?? "";
  return JSON.parse(fileInTarball(join(out, tarball), "package/package.json"));
};

describe("pnpm pack:all", () => {
  it("packs each package at the version a release publishes it at", () => {
    expect(packed.map((p) => p.name).sort()).toEqual([...PAIR].sort());
    for (const name of PAIR) {
      const version = expected.get(name);
      expect({ name, version: manifestOf(name).version }).toEqual({ name, version });
      expect(packed.find((p) => p.name === name)?.tarball).toContain(`-${version}.tgz`);
    }
  });

  it("points the client's dependency on the spec at the spec packed beside it", () => {
    expect(manifestOf("@platform-api/client").dependencies["@platform-api/spec"]).toBe(
      `^${manifestOf("@platform-api/spec").version}`,
    );
  });
});
