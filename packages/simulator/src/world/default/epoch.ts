/** History is dated before this instant so that the default world never changes with the date. */
export const EPOCH = Date.UTC(2026, 10, 1, 8, 0, 0);
