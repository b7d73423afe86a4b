export interface FunctionLength {
  name: string;
  line: number;
  lines: number;
}
export interface LongFunction extends FunctionLength {
  file: string;
}
export function functionLengths(text: string, fileName?: string): FunctionLength[];
export function longFunctions(dir: string, max: number, root?: string): LongFunction[];
export function inWords(f: LongFunction): string;
