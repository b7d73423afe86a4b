// A count of things that arrive (requests at a server, answers at a fetch) that a test can wait on:
// `until(n)` resolves when the nth has arrived, told by the arrival itself, never polled on a timer.
export interface Arrivals {
  /** How many have arrived so far. */
  readonly count: number;
  /** One more has arrived: wakes every wait it completes. */
  arrived(): void;
  /** Resolves once `n` have arrived (at once if they have). */
  until(n: number): Promise<void>;
}

export function createArrivals(): Arrivals {
  let count = 0;
  const waiting: { n: number; done: () => void }[] = [];
  return {
    get count() {
      return count;
    },
    arrived() {
      count++;
      for (const waiter of waiting.filter((w) => w.n <= count)) {
        waiting.splice(waiting.indexOf(waiter), 1);
        waiter.done();
      }
    },
    until: (n) => (count >= n ? Promise.resolve() : new Promise<void>((done) => waiting.push({ n, done }))),
  };
}
