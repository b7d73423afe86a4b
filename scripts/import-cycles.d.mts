export function importGraph(dir: string): Map<string, string[]>;
export function cyclesOf(graph: Map<string, string[]>, root: string): string[][];
