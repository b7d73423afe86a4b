// The command lines of `conformance observe` and `conformance verify`, parsed by commander.

import { Command, InvalidArgumentError, Option } from "commander";
import { reportFilesInWords } from "../report/formats.js";
import {
  durationRange,
  MAX_DURATION_SECONDS,
  OBSERVE_DEFAULTS,
  type ObserveOptions,
  type VerifyOptions,
} from "../traffic/commands.js";
import { DEFAULTS } from "./options.js";

const seconds = (value: string) => {
  const n = Number(value);
  if (value.trim() === "" || !Number.isFinite(n) || n <= 0 || n > MAX_DURATION_SECONDS)
    throw new InvalidArgumentError(durationRange(value));
  return n;
};

export function createObserveCommand(): Command {
  const command = new Command("observe")
    .description(
      "Forwards a client's traffic to the platform unchanged and judges every exchange by the spec and the platform's rules; writes the reports when it stops (Ctrl-C or --duration). Exit code 0: conformant; 1: a `must` rule broken; 2: usage error or nothing judged.",
    )
    .requiredOption(
      "--upstream <url>",
      "base URL to forward to, e.g. https://api.gcore.com or a simulator's URL",
    )
    .option(
      "--listen <host:port>",
      "where the proxy listens (port 0 picks a free one)",
      OBSERVE_DEFAULTS.listen,
    )
    .option("--allow-remote-listen", "allow a listen address other than loopback", false)
    .addOption(
      new Option(
        "--duration <seconds>",
        `stop after this many seconds (at most ${MAX_DURATION_SECONDS})`,
      ).argParser(seconds),
    )
    .option("--record <file.har>", "also write the exchanges to a HAR file (tokens replaced by labels)");
  return withReport(command);
}

export function createVerifyCommand(): Command {
  const command = new Command("verify")
    .description(
      "Judges recorded traffic (a HAR file, as browsers' developer tools, Playwright or `conformance observe --record` write it) by the spec and the platform's rules, offline. Exit code 0: conformant; 1: a `must` rule broken; 2: usage error or nothing judged.",
    )
    .requiredOption("--har <file>", "the HAR file to judge")
    .option("--base-url <url>", "judge only entries under this base URL (others are counted, not judged)");
  return withReport(command);
}

/** What both commands share with a run: where the reports go, and --strict. */
function withReport(command: Command): Command {
  return command
    .option("--report <dir>", `directory for ${reportFilesInWords()}`, DEFAULTS.report)
    .option("--strict", "count `should` failures as failures", false)
    .showHelpAfterError()
    .allowExcessArguments(false);
}

export function toObserveOptions(parsed: Record<string, unknown>): ObserveOptions {
  return {
    upstream: String(parsed.upstream),
    listen: typeof parsed.listen === "string" ? parsed.listen : OBSERVE_DEFAULTS.listen,
    allowRemoteListen: Boolean(parsed.allowRemoteListen),
    durationSeconds: typeof parsed.duration === "number" ? parsed.duration : undefined,
    record: typeof parsed.record === "string" ? parsed.record : undefined,
    report: typeof parsed.report === "string" ? parsed.report : DEFAULTS.report,
    strict: Boolean(parsed.strict),
  };
}

export function toVerifyOptions(parsed: Record<string, unknown>): VerifyOptions {
  return {
    har: String(parsed.har),
    baseUrl: typeof parsed.baseUrl === "string" ? parsed.baseUrl : undefined,
    report: typeof parsed.report === "string" ? parsed.report : DEFAULTS.report,
    strict: Boolean(parsed.strict),
  };
}
