// The built CLI's `observe`, run as a user runs it, for the tests only a real process proves
// (SIGINT, a file size limit): started, and its URL read from its first line.
import { type ChildProcess, spawn } from "node:child_process";

const CLI = new URL("../dist/cli.js", import.meta.url).pathname;

export interface ObserveCli {
  child: ChildProcess;
  /** The proxy's URL, as it printed it. */
  url: string;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
  /** Sends SIGINT and resolves with the exit code. */
  stop(): Promise<number | null>;
}

/**
 * Starts `observe` with `args` (after `observe`); `wrap` runs it under another command (`sh -c
 * 'ulimit …'`). `onStarted` gets the child at once, for the test's cleanup.
 */
export async function startObserveCli(
  args: string[],
  onStarted: (child: ChildProcess) => void,
  wrap: string[] = [],
): Promise<ObserveCli> {
  const [command = process.execPath, ...before] = wrap.length > 0 ? [...wrap, process.execPath] : [];
  const child = spawn(command, [...before, CLI, "observe", ...args], {
    env: { PATH: process.env.PATH ?? "", NO_COLOR: "1" },
    stdio: ["ignore", "pipe", "pipe"],
  });
  onStarted(child);
  let out = "";
  child.stderr?.on("data", (c: Buffer) => {
    out += c.toString();
  });
  const url = await new Promise<string>((done, fail) => {
    child.stdout?.on("data", (c: Buffer) => {
      out += c.toString();
      const found = /Observing (http:\/\/127\.0\.0\.1:\d+)/.exec(out)?.[1];
      if (found) done(found);
    });
    child.once("close", () => fail(new Error(`observe ended before listening:\n${out}`)));
  });
  return {
    child,
    url,
    output: () => out,
    stop() {
      const code = new Promise<number | null>((done) => child.once("close", done));
      child.kill("SIGINT");
      return code;
    },
  };
}
