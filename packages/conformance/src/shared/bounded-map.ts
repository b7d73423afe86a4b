// A map that keeps at most `max` entries, forgetting the least recently used one first, and counts
// what it forgot: a judge that runs for days keeps what a few walks and tasks need, not everything.

export class BoundedMap<K, V> {
  private readonly entries = new Map<K, V>();
  /** How many entries were forgotten to stay within the bound. */
  evicted = 0;

  constructor(
    readonly max: number,
    /** Told of each entry forgotten (to count only those that mattered). */
    private readonly onEvict?: (key: K, value: V) => void,
  ) {}

  get(key: K): V | undefined {
    const value = this.entries.get(key);
    if (value !== undefined) {
      this.entries.delete(key);
      this.entries.set(key, value);
    }
    return value;
  }

  set(key: K, value: V): void {
    this.entries.delete(key);
    this.entries.set(key, value);
    while (this.entries.size > this.max) {
      const [oldest, old] = this.entries.entries().next().value as [K, V];
      this.entries.delete(oldest);
      this.evicted++;
      this.onEvict?.(oldest, old);
    }
  }

  delete(key: K): void {
    this.entries.delete(key);
  }

  /** Forgets every entry (not counted as evicted: nothing was forgotten to stay within the bound). */
  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
