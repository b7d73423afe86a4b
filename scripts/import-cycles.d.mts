export function importGraph(dir: string): Map<string, string[]>;
export function cyclesOf(graph: Map<string, string[]>, root: string): string[][];

/** One floor of a house: its folders, bottom floor first; `peers` when they import none of each other. */
export interface Floor {
  folders: string[];
  peers?: boolean;
}
/** What a folder's `floors.json` declares (see readHouse). */
export interface House {
  /** why the folder has these floors, for its reader; no check reads it */
  why?: string;
  /** the files of the folder's root */
  entryPoints: string[];
  floors: Floor[];
}
export function readHouse(dir: string): House | undefined;
export function floorProblems(graph: Map<string, string[]>, root: string, house: House): string[];
