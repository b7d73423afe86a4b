// `fuzz --replay`: each finding's request sent again to this run's target, and whether it still
// fails. The file is read and checked first (src/fuzz/replay-file.ts). What goes out follows the
// run's rules, not the file's: without --allow-writes only reads are sent (the rest skipped, each
// with a line); a path parameter that held the original run's own value (its project, region or
// protection profile) holds this target's, one that held a random UUID a fresh one, and a write
// whose parameters cannot all be mapped so is not sent. What a PUT replaces is read first and put
// back (the session's restorer).

import { operationById } from "@platform-api/spec";
import { specModel } from "../facts/spec.js";
import type { RunContext } from "../shared/context.js";
import type { Finding, FuzzRequest } from "../shared/finding.js";
import type { FuzzReport } from "../shared/results.js";
import { colors as pc } from "../shared/terminal.js";
import { runValueOf, writes, writesNeedAsking } from "./plan.js";
import { requestLine } from "./request.js";
import type { Session } from "./session.js";

export type Replayed = NonNullable<FuzzReport["replay"]>;

/** The request to send for a finding against this run's target, or why it is not sent. */
export function mappedRequest(
  finding: Finding,
  run: Pick<RunContext, "allowWrites" | "discovered">,
  uuid: () => string,
): FuzzRequest | { skip: string } {
  const operation = operationById(specModel(), finding.request.operationId);
  const write = writes(operation);
  if (write && !run.allowWrites) return { skip: writesNeedAsking(operation) };
  const params: Record<string, string> = {};
  for (const [name, value] of Object.entries(finding.request.params)) {
    if (finding.request.unknownParameter === name) {
      // Any UUID no resource has shows the same: never one the file chose.
      params[name] = uuid();
      continue;
    }
    if (finding.request.fromRun.includes(name)) {
      const own = runValueOf(operation, name, run.discovered);
      if (own === undefined)
        return { skip: `its ${name} held the original run's own, and this run has none to put there` };
      params[name] = own;
      continue;
    }
    // A value the original run generated (a wrong type, on purpose): harmless to read, never written to.
    if (write)
      return {
        skip: `its ${name} holds a value of the original run's that this run cannot map to this target: a write is not sent there`,
      };
    params[name] = value;
  }
  return { ...finding.request, params };
}

/** Sends each finding's request again, adding what became of it to `out` as it goes (an interrupt keeps what was done). */
export async function replay(
  findings: Finding[],
  run: Pick<RunContext, "allowWrites" | "discovered">,
  session: Session,
  uuid: () => string,
  write: (line: string) => void,
  out: Replayed,
): Promise<void> {
  for (const finding of findings) {
    const request = mappedRequest(finding, run, uuid);
    if ("skip" in request) {
      out.push({
        id: finding.id,
        severity: finding.severity,
        stillFails: false,
        status: null,
        skipped: request.skip,
      });
      write(pc.dim(`skipped ${finding.id}: ${request.skip}`));
      continue;
    }
    const { status, failed, notSent } = await session.send(request, finding.phase);
    if (notSent !== undefined) {
      out.push({
        id: finding.id,
        severity: finding.severity,
        stillFails: false,
        status: null,
        skipped: notSent,
      });
      write(pc.dim(`skipped ${finding.id}: ${notSent}`));
      continue;
    }
    const stillFails = failed.has(finding.id);
    out.push({ id: finding.id, severity: finding.severity, stillFails, status });
    write(
      `${stillFails ? pc.red("still fails") : pc.green("passes now")} ${finding.id}: ${requestLine(request)} → ${status ?? "no answer"}`,
    );
  }
}
