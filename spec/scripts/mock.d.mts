export declare const bundlePath: string;

export interface PrismMock {
  url: string;
  close(): Promise<void>;
}

/** Starts Prism's mock server on 127.0.0.1 with the bundled description; `port: 0` picks a free port. */
export declare function startPrismMock(options?: {
  port?: number;
  host?: string;
  spec?: string;
  /** How long Prism may take to say it is ready before the start fails. Default 120000 (a loaded machine took over 30 s). */
  readyTimeoutMs?: number;
  stdio?: "pipe" | "inherit";
}): Promise<PrismMock>;

/**
 * `start` on a port `pick` says is free, picked again (a few times) when the start fails with
 * EADDRINUSE because another server took the port before Prism bound it.
 */
export declare function onFreePort<T>(
  pick: () => Promise<number>,
  start: (port: number) => Promise<T>,
): Promise<T>;

/** The package that runs the mock, an optional peer dependency. */
export declare const PRISM_PACKAGE: string;

/** Thrown by startPrismMock when Prism is not installed; the message says what to install. */
export declare class PrismNotInstalledError extends Error {
  code: "PRISM_NOT_INSTALLED";
}
