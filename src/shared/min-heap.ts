/** A binary min-heap of items keyed by a time (or any number): push, then pop everything due. */
export class MinHeap<T> {
  private readonly items: Array<{ at: number; item: T }> = [];

  get size(): number {
    return this.items.length;
  }

  push(at: number, item: T): void {
    const a = this.items;
    a.push({ at, item });
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (a[p]!.at <= a[i]!.at) break;
      [a[p], a[i]] = [a[i]!, a[p]!];
      i = p;
    }
  }

  /** Removes every item due at or before `at` and visits each, earliest first. */
  popDue(at: number, visit: (item: T, dueAt: number) => void): void {
    const a = this.items;
    while (a.length && a[0]!.at <= at) {
      const top = a[0]!;
      const last = a.pop()!;
      if (a.length) {
        a[0] = last;
        this.siftDown();
      }
      visit(top.item, top.at);
    }
  }

  private siftDown(): void {
    const a = this.items;
    let i = 0;
    for (;;) {
      const l = 2 * i + 1;
      const r = l + 1;
      let m = i;
      if (l < a.length && a[l]!.at < a[m]!.at) m = l;
      if (r < a.length && a[r]!.at < a[m]!.at) m = r;
      if (m === i) return;
      [a[m], a[i]] = [a[i]!, a[m]!];
      i = m;
    }
  }
}
