// The one error a run ends on with exit code 2: the suite was asked to do something it cannot,
// and the message says what to do instead. A leaf: every floor may refuse its input with it.

/** A problem with how the suite was asked to run: exit code 2, with a message that says what to do. */
export class UsageError extends Error {
  override name = "UsageError";
}
