// Durations as the HTTP layer's sentences say them.

/** Milliseconds as seconds for a sentence: whole seconds, tenths below 10 s. */
export function seconds(ms: number): string {
  return String(ms < 10_000 ? Math.round(ms / 100) / 10 : Math.round(ms / 1000));
}
