// The judge's copy of a body as it streams past: the stream itself is never touched, and a body
// longer than the judge reads is passed on whole but kept by no one.

export interface BodyCopy {
  add(chunk: Buffer): void;
  /** The bytes seen, undefined when there were more than the bound. */
  bytes(): Buffer | undefined;
  /** Whether any byte came at all. */
  readonly seen: boolean;
}

/** Collects a copy of a stream's chunks up to a bound. */
export function bodyCopy(limit: number): BodyCopy {
  const chunks: Buffer[] = [];
  let size = 0;
  let over = false;
  return {
    add(chunk: Buffer) {
      if (over) return;
      size += chunk.length;
      if (size > limit) {
        over = true;
        chunks.length = 0;
      } else chunks.push(chunk);
    },
    bytes: () => (over ? undefined : Buffer.concat(chunks)),
    get seen() {
      return size > 0;
    },
  };
}
