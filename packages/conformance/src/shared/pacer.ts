// Even pacing of the suite's own requests: starts `1 / perSecond` seconds apart, so the suite itself
// stays below the platform's request rate (--rate-limit is checked against it, src/cli/options.ts) and
// never meets a 429 it caused.

export interface Pacer {
  /** Resolves when the next request may start. */
  wait(): Promise<void>;
}

export function createPacer(perSecond: number): Pacer {
  if (!(perSecond > 0)) return { wait: async () => {} };
  const gap = 1000 / perSecond;
  let next = 0;
  return {
    wait() {
      const now = performance.now();
      const start = Math.max(now, next);
      next = start + gap;
      const delay = start - now;
      return delay <= 0 ? Promise.resolve() : new Promise((done) => setTimeout(done, delay));
    },
  };
}
