// observe in this process, recording to a HAR, for the tests that read what it wrote: the run, the
// proxy's URL once it listens, the lines it printed, and a stop (as Ctrl-C would).
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runObserve } from "../src/traffic/commands.js";

export function observeRecording(upstream: string, prefix: string) {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const lines: string[] = [];
  let stop: () => void = () => {};
  let listening: (url: string) => void = () => {};
  const url = new Promise<string>((done) => {
    listening = done;
  });
  const run = runObserve(
    {
      upstream,
      listen: "127.0.0.1:0",
      allowRemoteListen: false,
      record: join(dir, "traffic.har"),
      report: join(dir, "report"),
      strict: false,
    },
    {
      write: (line) => lines.push(line),
      env: {},
      stop: new Promise((done) => (stop = () => done(undefined))),
      listening,
    },
  );
  return { dir, lines, url, run, stop: () => stop() };
}
