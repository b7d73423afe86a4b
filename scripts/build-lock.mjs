// The build lock of scripts/run-built.mjs: two `pnpm sim` / `pnpm conformance …` started at once on
// a fresh clone would run two turbo builds of the same packages, and tsc would write dist/ under the
// other's feet (a run once read a half-written module). One build holds the lock; the others wait,
// then find the packages built.
//
// The lock is a directory holding its owner (owner.json: pid, package, start time). It is written
// under another name and renamed into place, so a lock is never seen without its owner (a crash
// between a mkdir and the owner's write would leave a lock nobody can judge). A lock whose owner's
// process is gone (SIGKILL, a power cut) is taken over.
import { randomUUID } from "node:crypto";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { setTimeout as sleep } from "node:timers/promises";

const OWNER = "owner.json";
// Short enough that a waiter starts soon after the build it waits for; a build takes seconds at least.
const POLL_MS = 250;

/** The lock still held when the wait ran out: the message says whose it is and how to remove it. */
export class BuildLockTimeout extends Error {}

/**
 * Waits (up to `waitMs`) until this process holds the lock at `path`, saying once through `say` what
 * it waits for, and when it takes over a lock whose owner is gone. `release()` is synchronous, so an
 * `exit` handler may call it; calling it again does nothing.
 */
export async function acquireBuildLock(path, { pkg, waitMs, say }) {
  const owner = { pid: process.pid, package: pkg, started: new Date().toISOString(), token: randomUUID() };
  const deadline = Date.now() + waitMs;
  let told = false;
  for (;;) {
    if (publish(path, owner)) return held(path, owner);
    const holder = readOwner(path);
    // Freed since: try again at once.
    if (holder === undefined) continue;
    if (holder && !isAlive(holder.pid) && takeOver(path, holder)) {
      say(`Took over the build lock ${path}: its owner, pid ${holder.pid} (${holder.package}), is gone.`);
      continue;
    }
    if (!told) say(`Waiting for ${describe(holder)} to finish (build lock ${path})…`);
    told = true;
    if (Date.now() >= deadline) {
      throw new BuildLockTimeout(
        `Gave up after ${Math.round(waitMs / 1000)} s waiting for ${describe(holder)} (build lock ${path}). ` +
          `If no build is running, remove the lock: rm -r '${path}'`,
      );
    }
    await sleep(POLL_MS);
  }
}

function describe(holder) {
  return holder
    ? `the build of ${holder.package} by pid ${holder.pid} (since ${holder.started})`
    : "a build lock whose owner cannot be read";
}

function held(path, owner) {
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      if (readOwner(path)?.token === owner.token) discard(path);
    },
  };
}

/** Puts the lock in place whole, owner included; false when there is one already. */
function publish(path, owner) {
  mkdirSync(dirname(path), { recursive: true });
  const draft = mkdtempSync(`${path}.draft-`);
  writeFileSync(join(draft, OWNER), JSON.stringify(owner));
  try {
    renameSync(draft, path);
    return true;
  } catch (error) {
    rmSync(draft, { recursive: true, force: true });
    if (error.code === "EEXIST" || error.code === "ENOTEMPTY") return false;
    throw error;
  }
}

/** The lock's owner; undefined when there is no lock, null when its owner cannot be read. */
function readOwner(path) {
  try {
    return JSON.parse(readFileSync(join(path, OWNER), "utf8"));
  } catch {
    return existsSync(path) ? null : undefined;
  }
}

function isAlive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, someone else's.
    return error.code !== "ESRCH";
  }
}

/**
 * Removes the lock of `gone`, an owner whose process has ended, unless it is no longer that lock.
 * Waiters that judge it stale at once must not each remove it: the second would remove the lock the
 * first has just put in its place. So one claims it first (mkdir inside it: one wins), then checks
 * the lock is still gone's before removing it.
 */
function takeOver(path, gone) {
  const claim = join(path, "takeover");
  try {
    mkdirSync(claim);
  } catch (error) {
    // Another waiter claims it, or it was removed: back to the loop.
    if (error.code === "EEXIST" || error.code === "ENOENT") return false;
    throw error;
  }
  if (readOwner(path)?.token !== gone.token) {
    rmSync(claim, { recursive: true, force: true });
    return false;
  }
  discard(path);
  return true;
}

/** The lock goes at once from whole to absent (renamed, then deleted), never half-removed. */
function discard(path) {
  const trash = `${path}.old-${process.pid}-${randomUUID()}`;
  renameSync(path, trash);
  rmSync(trash, { recursive: true, force: true });
}
