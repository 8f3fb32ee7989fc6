/** One bucket's counts for one account and endpoint. */
export interface UsageCell {
  accountId: string;
  bucket: number;
  endpoint: string;
  requests: number;
  rateLimited: number;
}

/** Usage storage: counts are added (never overwritten), so any number of replicas can flush into it. */
export interface UsageRepository {
  add(cells: readonly UsageCell[]): Promise<void>;
  /** Per endpoint, the counts of the account's buckets starting at or after `sinceMs`. */
  totals(
    accountId: string,
    sinceMs: number,
  ): Promise<Array<{ endpoint: string; requests: number; rateLimited: number }>>;
  /** Deletes buckets that start before `beforeMs`; returns how many. */
  prune(beforeMs: number): Promise<number>;
}

/** The in-memory twin (unit tests). */
export function createMemoryUsageRepository(): UsageRepository & { cells: UsageCell[] } {
  const cells: UsageCell[] = [];
  return {
    cells,
    async add(list) {
      for (const c of list) {
        const found = cells.find(
          (x) => x.accountId === c.accountId && x.bucket === c.bucket && x.endpoint === c.endpoint,
        );
        if (found) {
          found.requests += c.requests;
          found.rateLimited += c.rateLimited;
        } else cells.push({ ...c });
      }
    },
    async totals(accountId, sinceMs) {
      const by = new Map<string, { endpoint: string; requests: number; rateLimited: number }>();
      for (const c of cells) {
        if (c.accountId !== accountId || c.bucket < sinceMs) continue;
        const entry = by.get(c.endpoint) ?? { endpoint: c.endpoint, requests: 0, rateLimited: 0 };
        entry.requests += c.requests;
        entry.rateLimited += c.rateLimited;
        by.set(c.endpoint, entry);
      }
      return [...by.values()];
    },
    async prune(beforeMs) {
      const before = cells.length;
      for (let i = cells.length - 1; i >= 0; i--) if (cells[i]!.bucket < beforeMs) cells.splice(i, 1);
      return before - cells.length;
    },
  };
}
