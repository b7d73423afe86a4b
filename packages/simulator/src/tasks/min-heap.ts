// A binary min-heap: the store's timeline of task transitions, so settling the clock costs
// O(log n) per transition that is due instead of a scan of every task in flight.

export class MinHeap<T> {
  private readonly items: T[] = [];

  constructor(private readonly before: (a: T, b: T) => boolean) {}

  get size(): number {
    return this.items.length;
  }

  peek(): T | undefined {
    return this.items[0];
  }

  push(item: T): void {
    const items = this.items;
    items.push(item);
    let i = items.length - 1;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (!this.before(items[i] as T, items[parent] as T)) break;
      [items[i], items[parent]] = [items[parent] as T, items[i] as T];
      i = parent;
    }
  }

  pop(): T | undefined {
    const items = this.items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0 && last !== undefined) {
      items[0] = last;
      let i = 0;
      for (;;) {
        const left = 2 * i + 1;
        const right = left + 1;
        let least = i;
        if (left < items.length && this.before(items[left] as T, items[least] as T)) least = left;
        if (right < items.length && this.before(items[right] as T, items[least] as T)) least = right;
        if (least === i) break;
        [items[i], items[least]] = [items[least] as T, items[i] as T];
        i = least;
      }
    }
    return top;
  }
}
