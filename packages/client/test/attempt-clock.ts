import { vi } from "vitest";

/**
 * Attempt timeouts run on one shared setInterval and read Date.now: with those two faked, an
 * attempt times out when the test advances the clock, never because a loaded machine was slow to
 * answer (the server's sockets and the retry waits keep real timers).
 */
export const fakeAttemptClock = () => vi.useFakeTimers({ toFake: ["setInterval", "clearInterval", "Date"] });
