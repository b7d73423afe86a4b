/** The pinned changesets CLI entry (run it with `node`). */
export const changesetBin: string;
export function findBase(cwd: string, since?: string): { ref: string; why: string };
/** Checks the repository at `cwd`; `lines` is what to print. */
export function checkChangesets(options?: { cwd?: string; since?: string }): Promise<{
  ok: boolean;
  lines: string[];
}>;
