// Which encoding an answer goes out in, and each file's compressed bytes, made once per file (per
// version of it) and kept for the server's life: the site's largest file, Redoc's script, is 1.1 MB
// and a third of that gzipped, and the same few files are asked for on every page load.
import type { Stats } from "node:fs";
import { readFile } from "node:fs/promises";
import { extname } from "node:path";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";
import Negotiator from "negotiator";

export type Encoding = "br" | "gzip";

/** The site's text files; images other than SVG and fonts are compressed already. */
const COMPRESSIBLE = new Set([".html", ".js", ".cjs", ".mjs", ".css", ".json", ".svg", ".txt", ".map"]);

/** Below this, the encoding's own overhead and the work outweigh the bytes saved. */
export const MIN_COMPRESSED_SIZE = 1024;

export const isCompressible = (path: string) => COMPRESSIBLE.has(extname(path).toLowerCase());

/** Smaller first: on a tie, br. */
const ENCODINGS: readonly Encoding[] = ["br", "gzip"];

/**
 * The encoding to answer in for an `Accept-Encoding` header: the one it weighs highest of br and
 * gzip (br on a tie, the smaller, whatever order the header names them in), none that it refuses
 * (`;q=0`), undefined for the file as it is. `*` stands for any encoding the header does not name.
 */
export function negotiateEncoding(acceptEncoding: string | undefined): Encoding | undefined {
  // Lower case: negotiator reads only a lowercase `q`, and RFC 9110 has `Q=0` refuse as well.
  const negotiator = new Negotiator({ headers: { "accept-encoding": acceptEncoding?.toLowerCase() } });
  return negotiator.encoding(ENCODINGS, { preferred: ENCODINGS });
}

const compressors: Record<Encoding, (data: Buffer) => Promise<Buffer>> = {
  // Quality 9, not 11: measured on Redoc's script, 297 kB in 0.14 CPU-s against 272 kB in 2 CPU-s,
  // which the first load of the reference would wait for (and every browser test run pay).
  br: (data) =>
    promisify(brotliCompress)(data, {
      params: {
        [constants.BROTLI_PARAM_QUALITY]: 9,
        [constants.BROTLI_PARAM_SIZE_HINT]: data.length,
        [constants.BROTLI_PARAM_MODE]: constants.BROTLI_MODE_TEXT,
      },
    }),
  gzip: (data) => promisify(gzip)(data, { level: 9 }),
};

interface Entry {
  size: number;
  mtimeMs: number;
  encoded: Map<Encoding, Promise<Buffer>>;
}

/** Each file's compressed bytes, by encoding; a file changed on disk (size or time) is compressed anew. */
export class CompressedFiles {
  readonly #entries = new Map<string, Entry>();

  get(path: string, stats: Stats, encoding: Encoding): Promise<Buffer> {
    let entry = this.#entries.get(path);
    if (!entry || entry.size !== stats.size || entry.mtimeMs !== stats.mtimeMs) {
      entry = { size: stats.size, mtimeMs: stats.mtimeMs, encoded: new Map() };
      this.#entries.set(path, entry);
    }
    const kept = entry.encoded.get(encoding);
    if (kept) return kept;
    const made = readFile(path).then(compressors[encoding]);
    const { encoded } = entry;
    encoded.set(encoding, made);
    // A failure is not kept: the next request tries again.
    made.catch(() => {
      if (encoded.get(encoding) === made) encoded.delete(encoding);
    });
    return made;
  }
}
