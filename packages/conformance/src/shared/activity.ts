// What a run's HTTP layers and scenarios tell its progress and time account, as types: the HTTP
// layer and discovery tell, the progress line and the timeline (src/report/progress.ts) listen.

/** A pause the HTTP layer made between requests, and why. */
export interface Wait {
  /** "after 429", "after 503", "after no answer", or "pacing" (the suite's own rate). */
  reason: string;
  /** When it began (ms since the epoch) and how long it lasts. */
  at: number;
  ms: number;
  method: string;
  /** Path and query (redacted). */
  url: string;
}

/** What the HTTP layers and the scenarios tell a run's progress and its time account. */
export type Activity =
  | { kind: "scenario"; id: string }
  | { kind: "sent"; method: string; url: string }
  | { kind: "exchange"; at: number; ms: number }
  | ({ kind: "wait" } & Wait);

/** The hooks of an HTTP layer (HttpOptions) that tell a run's activity. */
export interface ActivityHooks {
  sending(request: { method: string; url: string }): void;
  waiting(wait: Wait): void;
  /** An exchange ended: when it was sent and how long it took. */
  exchanged(at: number, ms: number): void;
}
