// What the traffic held, counted (the report's `traffic`): its exchanges, those judged, those
// without an answer or whose body was too large to judge, and the operations the spec does not
// describe, a few listed by name.

export interface TrafficCounts {
  /** Every exchange, before anything else is known of it. */
  exchange(): void;
  /** No answer came (the upstream unreachable, the connection cut). */
  unanswered(): void;
  /** An operation the spec does not describe, by its redacted method and path. */
  undescribed(name: string): void;
  /** An answer larger than the judge reads. */
  bodyDropped(): void;
  /** An exchange given to the rules. */
  judged(): void;
  readonly counts: { exchanges: number; judged: number; noAnswer: number };
  readonly undescribedSeen: { count: number; examples: string[] };
  readonly droppedBodies: number;
}

export function createTrafficCounts(options: {
  /** Most operations the spec does not describe listed by name (LIMITS.undescribed). */
  undescribed: number;
}): TrafficCounts {
  const counts = { exchanges: 0, judged: 0, noAnswer: 0 };
  const undescribed = { count: 0, examples: [] as string[] };
  let bodies = 0;
  return {
    exchange() {
      counts.exchanges++;
    },
    unanswered() {
      counts.noAnswer++;
    },
    undescribed(name) {
      undescribed.count++;
      if (undescribed.examples.length < options.undescribed && !undescribed.examples.includes(name))
        undescribed.examples.push(name);
    },
    bodyDropped() {
      bodies++;
    },
    judged() {
      counts.judged++;
    },
    get counts() {
      return { ...counts };
    },
    get undescribedSeen() {
      return { count: undescribed.count, examples: [...undescribed.examples] };
    },
    get droppedBodies() {
      return bodies;
    },
  };
}
