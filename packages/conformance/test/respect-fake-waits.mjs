// Loaded into Redocly Respect's own process (NODE_OPTIONS=--import, by workflows.test.ts): a wait
// of one of the given lengths (RESPECT_FAKE_WAITS_MS, comma-separated milliseconds) ends at once
// instead of in real time, and is written to stderr, which runWorkflows keeps as the run's output.
// So a test proves the workflow waits exactly the spec's poll interval without spending it; a wait
// of any other length is left real and unreported, and the test that expects one fails.
//
// Respect waits between retries with setTimeout (its only timer of a whole second or more); the
// other timers (fetch and execution bounds) have lengths of their own and are left alone.

const lengths = new Set((process.env.RESPECT_FAKE_WAITS_MS ?? "").split(",").filter(Boolean).map(Number));
const realSetTimeout = globalThis.setTimeout;

globalThis.setTimeout = Object.assign((callback, ms, ...args) => {
  if (!lengths.has(ms)) return realSetTimeout(callback, ms, ...args);
  process.stderr.write(`[fake wait] ${ms} ms\n`);
  return realSetTimeout(callback, 0, ...args);
}, realSetTimeout);
