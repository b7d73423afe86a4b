// `conformance parity --har recording.har`: replays a recording of the platform against a target
// (the embedded simulator by default) and says where the target's answers differ in shape from the
// recorded ones, per operation and overall. Parity is information, not a verdict: exit 0 when it
// ran, 1 only under --fail-under, 2 for input it cannot use, 130/143 when interrupted.

import { closeSync, mkdirSync, writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { baseUrlOf, checkOptions } from "../discovery/check-options.js";
import { type StartedTarget, startTarget } from "../discovery/target.js";
import { readHar } from "../http/har.js";
import { createHttp } from "../http/http.js";
import { checkReportDir, openPrivate, reportDirOf } from "../report/files.js";
import { type RunIo, withRunOutput } from "../report/run-output.js";
import type { ConformanceOptions } from "../shared/conformance-options.js";
import { exitCodeOf } from "../shared/interrupt.js";
import { createPacer } from "../shared/pacer.js";
import { colors as pc } from "../shared/terminal.js";
import { UsageError } from "../shared/usage-error.js";
import { VERSION } from "../shared/version.js";
import { compareShapes, type SideName } from "./compare.js";
import { enumPathsOf } from "./enum-paths.js";
import { PARITY_DEFAULTS, type ParityOptions } from "./options.js";
import { type ParityPlan, planReplay } from "./plan.js";
import { toParityMarkdown, toTextLines } from "./render.js";
import { type Replayed, replayEntries } from "./replay.js";
import { buildParityReport, type ComparedExchange, type ParityReport } from "./report.js";
import { shapeOf } from "./shape.js";

export interface ParityResult {
  exitCode: 0 | 1 | 2 | 130 | 143;
  report?: ParityReport;
  reportDir?: string;
}

/** How many skipped writes are named one by one before the rest are only counted. */
const NAMED_WRITES = 20;

export function runParity(options: ParityOptions, io: RunIo = {}): Promise<ParityResult> {
  return withRunOutput(options, io, async ({ env, write, redactLine, targetKeys, notice }) => {
    const startedAt = new Date();
    const reportDir = reportDirOf(options.report, io.cwd);
    let target: StartedTarget | undefined;
    try {
      checkParityOptions(options);
      checkReportDir(reportDir);
      const { exchanges, outside } = await readHar(options.har, options.baseUrl);
      const plan = planReplay(exchanges, options);
      if (plan.replay.length === 0) throw nothingToReplay(options, exchanges.length, outside, plan);
      target = await startTarget(targetOptions(options), env);
      const keys = targetKeys([target.apiKey, target.resellerApiKey]);
      write(pc.bold(`Parity of ${target.label} with ${options.har}`));
      saySkippedWrites(plan, write);
      write(pc.dim(`replaying ${plan.replay.length} of ${exchanges.length} entries…`));
      const http = createHttp({
        baseUrl: target.url,
        apiKey: target.apiKey,
        resellerApiKey: target.resellerApiKey,
        pacer: createPacer(options.rateLimit),
        timeScale: target.timeScale,
        stalled: (stall) => notice(stall.message),
      });
      const side = target.kind === "url" ? "target" : target.kind;
      const compared: ComparedExchange[] = [];
      const replayed = await replayEntries(http, plan.replay, {
        signal: io.signal,
        hasResellerKey: target.resellerApiKey !== undefined,
        done: (one) => {
          compared.push(comparedOf(one, side));
          if (one.error !== undefined) notice(pc.yellow(`entry ${one.entry.index}: ${keys(one.error)}`));
        },
      });
      const interrupted = replayed.length < plan.replay.length;
      const report = buildParityReport(
        {
          version: VERSION,
          har: options.har,
          target: target.label,
          startedAt: startedAt.toISOString(),
          durationMs: Date.now() - startedAt.getTime(),
          entries: exchanges.length,
          outside,
          interrupted,
        },
        compared,
        plan.skipped,
      );
      for (const line of toTextLines(report)) write(line);
      if (!saveParityReports(report, reportDir, redactLine, write)) return { exitCode: 2, report };
      return {
        exitCode: exitCodeOfParity(options, report, interrupted, io.signal, write),
        report,
        reportDir,
      };
    } catch (error) {
      if (error instanceof UsageError) {
        write(pc.red(`conformance parity: ${error.message}`));
        return { exitCode: 2 };
      }
      throw error;
    } finally {
      await target?.close();
    }
  });
}

/** Why a recording gives nothing to replay: its entries counted by why each was left out. */
function nothingToReplay(
  options: ParityOptions,
  entries: number,
  outside: number,
  plan: ParityPlan,
): UsageError {
  const reasons = new Map<string, number>();
  for (const s of plan.skipped) reasons.set(s.reason, (reasons.get(s.reason) ?? 0) + 1);
  const why = [...reasons].map(([reason, n]) => `${n} ${reason}`).join(", ");
  return new UsageError(
    `--har ${options.har}: nothing to replay: ${entries} entries${outside ? ` (and ${outside} outside --base-url)` : ""}${why ? `: ${why}` : ""}; parity replays answered reads (GET) of the spec's operations${options.allowWrites ? " and writes" : " (writes with --allow-writes)"}.`,
  );
}

/** The writes left out, the first NAMED_WRITES by entry, the rest counted. */
function saySkippedWrites(plan: ParityPlan, write: (line: string) => void): void {
  const writes = plan.skipped.filter((s) => s.reason === "a write");
  for (const s of writes.slice(0, NAMED_WRITES))
    write(
      pc.dim(
        `skipped write: entry ${s.index} ${s.method} ${s.path} (${s.operationId}); --allow-writes sends it`,
      ),
    );
  if (writes.length > NAMED_WRITES)
    write(pc.dim(`skipped ${writes.length - NAMED_WRITES} more writes (counted in the report)`));
}

/** A replayed entry's answer against its recorded one, shape by shape. */
function comparedOf({ entry, answer, error }: Replayed, side: SideName): ComparedExchange {
  const { exchange, operation } = entry;
  const recordedShape = shapeOf(
    { status: exchange.status, headers: exchange.responseHeaders, text: exchange.body },
    enumPathsOf(operation, exchange.status, null),
  );
  const replayedShape = shapeOf(answer, enumPathsOf(operation, answer.status, null));
  return {
    index: entry.index,
    operationId: operation.operationId,
    method: exchange.method,
    path: exchange.url.split("?")[0] ?? "/",
    differences: compareShapes(recordedShape, replayedShape, side),
    ...(error === undefined ? {} : { noAnswer: true }),
  };
}

/** Writes parity.json and parity.md and says where; a write that fails is one line, and false. */
function saveParityReports(
  report: ParityReport,
  reportDir: string,
  redact: (text: string) => string,
  write: (line: string) => void,
): boolean {
  try {
    writeParityReports(report, reportDir, redact);
    write(pc.dim(`reports: ${reportDir}/parity.json, parity.md`));
    return true;
  } catch (error) {
    write(
      pc.red(`conformance parity: cannot write the reports into ${reportDir} (${(error as Error).message}).`),
    );
    return false;
  }
}

/** 128 + the signal when interrupted; 1 below --fail-under (said); else 0: parity is no verdict. */
function exitCodeOfParity(
  options: ParityOptions,
  report: ParityReport,
  interrupted: boolean,
  signal: AbortSignal | undefined,
  write: (line: string) => void,
): ParityResult["exitCode"] {
  if (interrupted) {
    const reason = signal?.reason;
    return exitCodeOf(typeof reason === "string" ? reason : "SIGINT");
  }
  if (options.failUnder !== undefined && (report.parity ?? 0) < options.failUnder) {
    write(pc.red(`parity ${report.parity ?? 0}% is below --fail-under ${options.failUnder}%`));
    return 1;
  }
  return 0;
}

function checkParityOptions(options: ParityOptions): void {
  // The target, keys, rate and time scale as a run checks them.
  checkOptions(targetOptions(options));
  if (options.baseUrl !== undefined) baseUrlOf("--base-url", options.baseUrl);
  const { maxEntries, failUnder } = options;
  if (!Number.isInteger(maxEntries) || maxEntries < 1 || maxEntries > PARITY_DEFAULTS.maxMaxEntries)
    throw new UsageError(
      `--max-entries needs a whole number from 1 to ${PARITY_DEFAULTS.maxMaxEntries} (got ${maxEntries}).`,
    );
  if (failUnder !== undefined && !(failUnder >= 0 && failUnder <= 100))
    throw new UsageError(`--fail-under needs a percentage from 0 to 100 (got ${failUnder}).`);
}

/** What startTarget reads: the run's target options, the rest at the run's defaults. */
function targetOptions(options: ParityOptions): ConformanceOptions {
  return {
    target: options.target,
    apiKeyEnv: options.apiKeyEnv,
    resellerApiKeyEnv: options.resellerApiKeyEnv,
    allowWrites: options.allowWrites,
    allowBurst: false,
    only: [],
    rateLimit: options.rateLimit,
    report: options.report,
    strict: false,
    dryRun: false,
    timeScale: options.timeScale,
  };
}

/** parity.json and parity.md, owner-only as every report (they hold what a target answered). */
export function writeParityReports(
  report: ParityReport,
  dir: string,
  redact: (text: string) => string,
): void {
  mkdirSync(dir, { recursive: true });
  const put = (name: string, text: string) => {
    const fd = openPrivate(resolve(dir, name));
    try {
      writeFileSync(fd, redact(text));
    } finally {
      closeSync(fd);
    }
  };
  put("parity.json", `${JSON.stringify(report, null, 2)}\n`);
  put("parity.md", toParityMarkdown(report));
}
