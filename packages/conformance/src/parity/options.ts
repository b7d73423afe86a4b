// `conformance parity`'s options and their bounds, apart from the command so that the command line
// is read without loading what replays (the HTTP layer, the simulator).

export interface ParityOptions {
  har: string;
  /** Only entries under this URL are read, their paths relative to it. */
  baseUrl?: string;
  /** "simulator" (in-process, the default), "prism", or a base URL. */
  target: string;
  apiKeyEnv: string;
  resellerApiKeyEnv: string;
  /** Also replay the recording's writes (POST, PUT, PATCH, DELETE), in recorded order. */
  allowWrites: boolean;
  /** At most this many entries are replayed. */
  maxEntries: number;
  /** Exit 1 when the overall parity is below this percentage. */
  failUnder?: number;
  /** Folder for parity.json and parity.md. */
  report: string;
  /** Requests per second. */
  rateLimit: number;
  timeScale?: number;
}

export const PARITY_DEFAULTS = { maxEntries: 1000, maxMaxEntries: 100_000 } as const;
