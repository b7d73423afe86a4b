export declare const HOW_TO_INSTALL: string;
/** The Chromium to use: CHROMIUM_PATH, else the first known name on PATH; undefined when none. */
export declare function findChromium(): string | undefined;
