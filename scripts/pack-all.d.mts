export interface Packed {
  name: string;
  version: string;
  /** its file name in the folder packed into */
  tarball: string;
}
export function packAll(root: string, out: string, options?: { only?: readonly string[] }): Packed[];
export function plainEnv(): Record<string, string | undefined>;
export function checkConsumer(root: string, folder: string): void;
