// Faults on demand, so clients and suites can be tried under failure: injected statuses, dropped
// connections and delays. Spec: comma-separated entries, e.g. "500:0.1,429:0.05,reset:0.01,latency:20-200".

export interface Faults {
  /** Probability of answering with each status instead of the real answer. */
  statuses: { status: 429 | 500; probability: number }[];
  /** Probability of closing the connection without an answer. */
  reset: number;
  /** Added delay in ms, drawn uniformly from [min, max] for every request. */
  latency: { min: number; max: number } | undefined;
}

const ALLOWED =
  'Allowed entries: "500:P" and "429:P" (statuses every operation documents), "reset:P" (drop the connection) and "latency:MS" or "latency:MIN-MAX" (milliseconds), where P is a probability from 0 to 1.';

export const NO_FAULTS: Faults = { statuses: [], reset: 0, latency: undefined };

export function parseFaults(spec: string | undefined): Faults {
  if (spec === undefined || spec.trim() === "") return NO_FAULTS;
  const faults: Faults = { statuses: [], reset: 0, latency: undefined };
  for (const raw of spec.split(",")) {
    const entry = raw.trim();
    const [kind, value, ...rest] = entry.split(":");
    if (value === undefined || rest.length > 0)
      throw new Error(`Fault "${entry}" is not KIND:VALUE. ${ALLOWED}`);
    if (kind === "latency") {
      const match = /^(\d+)(?:-(\d+))?$/.exec(value);
      const min = Number(match?.[1]);
      const max = Number(match?.[2] ?? match?.[1]);
      if (!match || max < min)
        throw new Error(`Fault "${entry}" needs milliseconds as MS or MIN-MAX with MIN <= MAX. ${ALLOWED}`);
      faults.latency = { min, max };
      continue;
    }
    const probability = Number(value);
    if (!/^\d*\.?\d+$/.test(value) || probability > 1) {
      throw new Error(`Fault "${entry}" needs a probability from 0 to 1 (got "${value}"). ${ALLOWED}`);
    }
    if (kind === "reset") faults.reset = probability;
    else if (kind === "500" || kind === "429")
      faults.statuses.push({ status: Number(kind) as 429 | 500, probability });
    else throw new Error(`Fault "${entry}" has an unknown kind "${kind}". ${ALLOWED}`);
  }
  const total = faults.reset + faults.statuses.reduce((sum, s) => sum + s.probability, 0);
  if (total > 1) throw new Error(`Fault probabilities add up to ${total}, more than 1. ${ALLOWED}`);
  return faults;
}

export type FaultDraw = { kind: "none" } | { kind: "reset" } | { kind: "status"; status: 429 | 500 };

/** One draw for one request: which fault, if any, it meets. */
export function drawFault(faults: Faults, next: () => number): FaultDraw {
  if (faults.reset === 0 && faults.statuses.length === 0) return { kind: "none" };
  let roll = next();
  if (roll < faults.reset) return { kind: "reset" };
  roll -= faults.reset;
  for (const { status, probability } of faults.statuses) {
    if (roll < probability) return { kind: "status", status };
    roll -= probability;
  }
  return { kind: "none" };
}
