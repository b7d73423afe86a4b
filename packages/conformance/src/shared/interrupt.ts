// Ctrl-C and SIGTERM during a run that may change the target (fuzz): the first asks it to stop,
// put back what it changed and write the report of what it sent; a second quits at once, saying
// what that leaves. Without this, Node's default ends the process mid-write, leaving a fuzzed
// value in place and no report.

/** The exit code a shell gives a command ended by the signal (128 + its number: 130 for SIGINT, 143 for SIGTERM, the two it handles). */
export const exitCodeOf = (signal: string): 130 | 143 => (signal === "SIGTERM" ? 143 : 130);

/**
 * A signal aborted (its reason: the signal's name) on the first SIGINT or SIGTERM. `doing`: what
 * the command does on the first one, said after the signal's name (fuzz's unless another is given).
 */
export function interruptSignal(
  doing = (name: string) =>
    `sending nothing more; putting back what was changed and writing the report (${name} again quits at once and may leave it changed)`,
): AbortSignal {
  const controller = new AbortController();
  const onSignal = (name: NodeJS.Signals) => {
    if (!controller.signal.aborted) {
      process.stderr.write(`\n${name}: ${doing(name)}.\n`);
      controller.abort(name);
      return;
    }
    process.stderr.write(
      `\n${name} again: quitting now; what was changed may not be put back, and no report is written.\n`,
    );
    process.exit(exitCodeOf(name));
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return controller.signal;
}
