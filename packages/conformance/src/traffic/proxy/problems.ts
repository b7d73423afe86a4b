// Saying what the proxy could not pass on as it came, at no cost to the client: a teller that
// throws, or a stage that throws, never costs the client its answer.

export type Tell = (kind: string, message: string) => void;

/** `onProblem` made best effort: what it throws is dropped. */
export function tellerOf(onProblem: Tell | undefined): Tell {
  return (kind, message) => {
    try {
      onProblem?.(kind, message);
    } catch {
      // Telling is best effort: it never costs the client its answer.
    }
  };
}

/** A callback that cannot throw past the proxy: what throws is told as "internal". */
export function guard<A extends unknown[]>(tell: Tell, fn: (...args: A) => void): (...args: A) => void {
  return (...args: A) => {
    try {
      fn(...args);
    } catch (error) {
      tell("internal", `the proxy failed on an exchange: ${(error as Error).stack ?? error}`);
    }
  };
}
