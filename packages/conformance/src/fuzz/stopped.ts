// Why a fuzz run ended before its phases did: an interrupt (Ctrl-C, SIGTERM) or a target that
// fails everything. Thrown by the session's next send; the run catches it, puts back what it
// changed and writes the report of what was sent.

export class FuzzStopped extends Error {
  constructor(
    message: string,
    /** The signal that interrupted it (SIGINT: exit code 130, as a shell's Ctrl-C); undefined: the target. */
    readonly interrupted: string | undefined,
  ) {
    super(message);
    this.name = "FuzzStopped";
  }
}
