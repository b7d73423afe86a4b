// `conformance observe` and `conformance verify --har`: the judge (src/judge/judge.ts)
// fed by the observing proxy or by a HAR file, reported like an active run (the report files of
// src/report/formats.ts; exit code 0 conformant, 1 a `must` broken, 2 usage).

import { readFileSync } from "node:fs";
import { baseUrlOf } from "../discovery/check-options.js";
import { readHar } from "../http/har.js";
import { createJudge, type Judge } from "../judge/judge.js";
import { checkReportDir, reportDirOf, saveReports, verdictCode } from "../report/files.js";
import type { RunIo, RunResult } from "../report/run-output.js";
import { KEY_VARIABLES } from "../shared/conformance-options.js";
import { createUsageRedactor } from "../shared/redact.js";
import type { Report } from "../shared/results.js";
import { forTerminal, colors as pc } from "../shared/terminal.js";
import { UsageError } from "../shared/usage-error.js";
import { createHarRecorder, type RecordingState } from "./har-recorder.js";
import { type ObservingProxy, startProxy } from "./proxy.js";

export interface ObserveOptions {
  /** Base URL of the platform (or a simulator) the proxy forwards to. */
  upstream: string;
  /** "host:port" to listen on; port 0 picks a free one. */
  listen: string;
  /** Allows a listen address other than loopback. */
  allowRemoteListen: boolean;
  /** Stop after this many seconds; else on Ctrl-C (SIGINT) or SIGTERM. */
  durationSeconds?: number;
  /** Write the exchanges to this HAR file as they pass (tokens replaced by their labels). */
  record?: string;
  report: string;
  strict: boolean;
}

export interface VerifyOptions {
  har: string;
  /** Only entries under this URL are judged, their paths relative to it. */
  baseUrl?: string;
  report: string;
  strict: boolean;
}

export const OBSERVE_DEFAULTS = { listen: "127.0.0.1:4030" } as const;

/**
 * The longest --duration: what one Node timer holds (2^31 − 1 ms, about 24.8 days). A longer one
 * would fire at once (Node's TimeoutOverflowWarning) and end the session within a second.
 */
export const MAX_DURATION_SECONDS = Math.floor((2 ** 31 - 1) / 1000);

/** The refusal of a --duration outside its range. */
export const durationRange = (value: unknown) =>
  `--duration needs a number of seconds above 0, at most ${MAX_DURATION_SECONDS} (got "${value}").`;

const version = (): string =>
  (JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as { version: string })
    .version;

const LOOPBACK = /^(127\.\d{1,3}\.\d{1,3}\.\d{1,3}|::1|localhost)$/i;

/** "127.0.0.1:4030", "[::1]:4030", ":4030" or "4030" as host and port; loopback unless allowed. */
export function listenAddress(value: string, allowRemote: boolean): { host: string; port: number } {
  const text = value.trim();
  const match = /^(?:(?:\[([^\]]+)\]|([^:[\]]*)):)?(\d+)$/.exec(text);
  const host = match?.[1] ?? (match?.[2] || "127.0.0.1");
  const port = Number(match?.[3]);
  if (!match || !Number.isInteger(port) || port > 65_535)
    throw new UsageError(
      `--listen "${value}" is not an address: give host:port, e.g. 127.0.0.1:4030 (port 0 picks a free one).`,
    );
  if (!LOOPBACK.test(host) && !allowRemote)
    throw new UsageError(
      `--listen ${value}: ${host} is not loopback. The proxy forwards every request with its token to the upstream; ` +
        "anyone who can reach it can use your account. Pass --allow-remote-listen if that is what you want.",
    );
  return { host, port };
}

/**
 * The keys in their usual variables, when set: the traffic's tokens that equal them have a known
 * role, so the reseller API letting the client key in is judged in traffic too.
 */
const rolesOf = (env: Record<string, string | undefined> | undefined) => ({
  client: env?.[KEY_VARIABLES.apiKeyEnv] || undefined,
  reseller: env?.[KEY_VARIABLES.resellerApiKeyEnv] || undefined,
});

export interface Observing {
  /** The proxy's base URL: give it to the client instead of the platform's. */
  url: string;
  judge: Judge;
  /** Stops the proxy (exchanges in flight finish first) and closes the recording. */
  stop(): Promise<void>;
  /** Where the recording stands (with --record): its entries, and why it stopped early if it did. */
  readonly recording: RecordingState | undefined;
}

/** Starts the observing proxy and its judge (and recording); the commands and tests use it. */
export async function startObserving(
  options: Pick<ObserveOptions, "upstream" | "record"> & {
    host: string;
    port: number;
    env?: Record<string, string | undefined>;
    onFirstFailure?: (id: string, severity: string, problem: string) => void;
    /** Told once of each kind of trouble the session met (an upstream's invalid answer, a disk error). */
    onNotice?: (line: string) => void;
    /** How long a silent upstream is waited on (default UPSTREAM_TIMEOUT_MS; tests give less). */
    upstreamTimeoutMs?: number;
    /** The recording's bound (default MAX_RECORDING_BYTES; tests give less). */
    maxRecordingBytes?: number;
  },
): Promise<Observing> {
  // Each kind of trouble is said once, however many exchanges meet it: the report counts them.
  const told = new Set<string>();
  const notice = (kind: string, line: string) => {
    if (told.has(kind)) return;
    told.add(kind);
    options.onNotice?.(line);
  };
  const upstream = baseUrlOf("--upstream", options.upstream);
  const judge = createJudge({
    env: options.env,
    keyVariables: [KEY_VARIABLES.apiKeyEnv, KEY_VARIABLES.resellerApiKeyEnv],
    roles: rolesOf(options.env),
    onFirstFailure: options.onFirstFailure,
  });
  const recorder = options.record
    ? createHarRecorder(
        options.record,
        { upstream: upstream.href, version: version() },
        judge.label,
        judge.redact,
        { maxBytes: options.maxRecordingBytes, onStop: (line) => notice("recording", line) },
      )
    : undefined;
  let proxy: ObservingProxy;
  try {
    proxy = await startProxy({
      upstream: upstream.href,
      host: options.host,
      port: options.port,
      upstreamTimeoutMs: options.upstreamTimeoutMs,
      onProblem: (kind, message) => notice(kind, message),
      onExchange: (passed) => {
        // The judge first: it learns the exchange's token, which the recording then redacts.
        judge.judge(passed.exchange);
        recorder?.add(passed);
      },
    });
  } catch (error) {
    recorder?.close();
    const code = (error as NodeJS.ErrnoException).code;
    if (code === "EADDRINUSE" || code === "EADDRNOTAVAIL" || code === "EACCES")
      throw new UsageError(
        `--listen ${options.host}:${options.port}: cannot listen there (${code}); pick another port (0 picks a free one).`,
      );
    throw error;
  }
  let stopping: Promise<void> | undefined;
  return {
    url: proxy.url,
    judge,
    get recording() {
      return recorder?.state;
    },
    // Once: the reports are written after it, and a test's cleanup may call it again.
    stop() {
      stopping ??= proxy.close().then(() => recorder?.close());
      return stopping;
    },
  };
}

/** Waits for the end of an observe session: the duration, a signal, or `io.stop`. */
function sessionEnd(
  durationSeconds: number | undefined,
  stop: Promise<unknown> | undefined,
): Promise<string> {
  return new Promise((done) => {
    const timer =
      durationSeconds === undefined
        ? undefined
        : setTimeout(() => finish(`${durationSeconds} s passed`), durationSeconds * 1000);
    const onSignal = (signal: NodeJS.Signals) => finish(signal);
    function finish(why: string) {
      clearTimeout(timer);
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
      done(why);
    }
    process.once("SIGINT", onSignal);
    process.once("SIGTERM", onSignal);
    stop?.then(() => finish("stopped"));
  });
}

export interface TrafficIo extends RunIo {
  /** Ends an observe session when it settles (tests; the CLI waits for a signal or --duration). */
  stop?: Promise<unknown>;
  /** Told the proxy's URL once it listens. */
  listening?: (url: string) => void;
}

/** `urls`: the command's URL flags, whose passwords are redacted in every form. */
function printer(io: TrafficIo, urls: (string | undefined)[]) {
  const env = io.env ?? process.env;
  // Every line reaches the screen through forTerminal: what a target or a HAR sent shows as text.
  const print = (line: string) =>
    (io.write ?? ((text: string) => process.stdout.write(`${text}\n`)))(forTerminal(line));
  const usage = createUsageRedactor(env, [KEY_VARIABLES.apiKeyEnv, KEY_VARIABLES.resellerApiKeyEnv], urls);
  return { env, usage, print };
}

export async function runObserve(options: ObserveOptions, io: TrafficIo = {}): Promise<RunResult> {
  const { env, usage, print } = printer(io, [options.upstream]);
  let redact = usage;
  const write = (line: string) => print(redact(line));
  let observing: Observing;
  try {
    const duration = options.durationSeconds;
    if (duration !== undefined && !(duration > 0 && duration <= MAX_DURATION_SECONDS))
      throw new UsageError(durationRange(duration));
    const { host, port } = listenAddress(options.listen, options.allowRemoteListen);
    checkReportDir(reportDirOf(options.report, io.cwd));
    observing = await startObserving({
      upstream: options.upstream,
      record: options.record,
      host,
      port,
      env,
      onNotice: (line) => write(pc.yellow(`observe: ${line}`)),
      onFirstFailure: (id, severity, problem) =>
        write(`${severity === "must" ? pc.red("FAIL") : pc.yellow("WARN")} ${id}: ${problem.split("\n")[0]}`),
    });
  } catch (error) {
    if (error instanceof UsageError) {
      write(pc.red(`conformance observe: ${error.message}`));
      return { exitCode: 2 };
    }
    throw error;
  }
  redact = (line) => usage(observing.judge.redact(line));
  const startedAt = new Date();
  const upstream = baseUrlOf("--upstream", options.upstream);
  write(pc.bold(`Observing ${observing.url} → ${upstream.origin}${upstream.pathname.replace(/\/$/, "")}`));
  write(
    pc.dim(
      `Give your client ${observing.url} as its base URL. ${options.durationSeconds === undefined ? "Ctrl-C" : `${options.durationSeconds} s (or Ctrl-C)`} stops and writes the reports.${options.record ? ` Recording to ${options.record}.` : ""}`,
    ),
  );
  io.listening?.(observing.url);
  const why = await sessionEnd(options.durationSeconds, io.stop);
  await observing.stop();
  write(pc.dim(`stopped (${why})`));
  const recording = observing.recording;
  if (recording && !recording.complete)
    write(
      pc.yellow(
        recording.valid
          ? `the recording ${recording.file} holds the first ${recording.entries} entries, a whole HAR: it stopped early (${recording.stopped})`
          : `the recording ${recording.file} could not be written (${recording.stopped}; ${recording.error}): it is no valid HAR`,
      ),
    );
  return finish(observing.judge, options, io, write, redact, {
    target: `traffic observed on its way to ${upstream.origin}${upstream.pathname.replace(/\/$/, "")}`,
    startedAt,
    options: {
      upstream: options.upstream,
      listen: options.listen,
      record: options.record,
      ...(recording && !recording.complete ? { recording } : {}),
      strict: options.strict,
    },
  });
}

export async function runVerify(options: VerifyOptions, io: RunIo = {}): Promise<RunResult> {
  const { env, usage, print } = printer(io, [options.baseUrl]);
  let redact = usage;
  const write = (line: string) => print(redact(line));
  const startedAt = new Date();
  let reading: Awaited<ReturnType<typeof readHar>>;
  try {
    if (options.baseUrl !== undefined) baseUrlOf("--base-url", options.baseUrl);
    checkReportDir(reportDirOf(options.report, io.cwd));
    reading = await readHar(options.har, options.baseUrl);
  } catch (error) {
    if (error instanceof UsageError) {
      write(pc.red(`conformance verify: ${error.message}`));
      return { exitCode: 2 };
    }
    throw error;
  }
  const { exchanges, outside } = reading;
  // A recording without a single Authorization header whose calls succeeded had them removed (a
  // browser's default "sanitized" export): its requests' credentials cannot be judged.
  const credentialsRecorded =
    exchanges.some((e) => e.requestHeaders.authorization !== undefined) ||
    !exchanges.some((e) => e.status !== null && e.status >= 200 && e.status < 300);
  const judge = createJudge({
    env,
    keyVariables: [KEY_VARIABLES.apiKeyEnv, KEY_VARIABLES.resellerApiKeyEnv],
    roles: rolesOf(env),
    credentialsRecorded,
  });
  redact = (line) => usage(judge.redact(line));
  for (const exchange of exchanges) judge.judge(exchange);
  write(pc.bold(`Verifying ${options.har}${options.baseUrl ? ` (entries under ${options.baseUrl})` : ""}`));
  if (outside > 0) write(pc.dim(`${outside} entries outside ${options.baseUrl} were not judged`));
  if (!credentialsRecorded)
    write(
      pc.yellow(
        "the recording holds no Authorization header although its calls succeeded (a sanitized export?): what needs the credentials (auth.*) is not judged",
      ),
    );
  return finish(judge, options, io, write, redact, {
    target: `traffic recorded in ${options.har}`,
    startedAt,
    options: {
      har: options.har,
      baseUrl: options.baseUrl,
      strict: options.strict,
      outside,
      credentialsRecorded,
    },
  });
}

function finish(
  judge: Judge,
  options: { report: string; strict: boolean },
  io: RunIo,
  write: (line: string) => void,
  redact: (line: string) => string,
  meta: { target: string; startedAt: Date; options: Record<string, unknown> },
): RunResult {
  const report: Report = judge.report({ ...meta, strict: options.strict });
  const reportDir = reportDirOf(options.report, io.cwd);
  if (!saveReports(report, reportDir, redact, write)) return { exitCode: 2, report };
  if (report.traffic?.judged === 0) {
    write(
      pc.red(
        "platform-api-conformance: the traffic held no answer of an operation the spec describes, so nothing was judged (is the base URL right?).",
      ),
    );
    return { exitCode: 2, report, reportDir };
  }
  return { exitCode: verdictCode(report), report, reportDir };
}
