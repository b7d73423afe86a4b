// One seedable random source for everything the simulator draws (world, task durations, faults,
// identifiers), so that two runs with the same seed answer the same way.

export interface Random {
  /** A float in [0, 1). */
  next(): number;
  /** An integer in [min, max], both included. */
  int(min: number, max: number): number;
  /** One element of a non-empty array. */
  pick<T>(items: readonly T[]): T;
  /** A version-4 UUID made from this source (not from the OS), so ids repeat with the seed. */
  uuid(): string;
  /** Where the source is: `resume(state())` later draws on from here again. */
  state(): number;
  /** Moves the source to a state `state()` gave, as if it had drawn up to there. */
  resume(state: number): void;
}

/** mulberry32: small, fast and good enough for a simulator; not for anything secret. */
export function createRandom(seed: number): Random {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  // A loop rather than Array.from: a store draws an id for each task and volume it creates.
  const hex = (n: number) => {
    let text = "";
    for (let i = 0; i < n; i++) text += int(0, 15).toString(16);
    return text;
  };
  return {
    next,
    int,
    pick: (items) => {
      if (items.length === 0) throw new Error("pick() needs at least one item");
      return items[int(0, items.length - 1)] as (typeof items)[number];
    },
    uuid: () => `${hex(8)}-${hex(4)}-4${hex(3)}-${"89ab"[int(0, 3)]}${hex(3)}-${hex(12)}`,
    state: () => state,
    resume: (at) => {
      state = at >>> 0;
    },
  };
}
