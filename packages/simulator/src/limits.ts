// What the simulator keeps and accepts, at most, so that no request can exhaust it and no store
// grows without bound. The platform's own limits here are not shown by its documentation: these
// are the simulator's, written once and listed in its README.

export const LIMITS = {
  /** A request body, in bytes; larger bodies are a 400 before they are parsed. */
  bodyBytes: 64 * 1024,
  /** How deep objects and arrays may nest in a body (deeper JSON could exhaust the stack). */
  bodyDepth: 32,
  /** Characters of any one string in a body (a 900 kB volume name is not stored). */
  stringLength: 4096,
  /** Request line plus headers, in bytes (Node's default); beyond it the answer is a 431. */
  headerBytes: 16 * 1024,
  /** Characters of one path parameter; long enough that the route's own check decides. */
  pathParameterLength: 16 * 1024,
  /** Characters of a value quoted back in an error message. */
  quotedValue: 80,
  /** Tasks in FINISHED or ERROR kept at once; past it the oldest finished are forgotten first. */
  finishedTasks: 10_000,
  /** Volumes one client may hold in one region, whatever its quota says. */
  volumesPerRegion: 10_000,
} as const;

/** Integers the simulator can count exactly (JSON numbers beyond lose precision). */
export const SAFE_INTEGER = Number.MAX_SAFE_INTEGER;
