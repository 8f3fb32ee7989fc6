/** One bucket's counts for one account, client and endpoint. */
export interface UsageCell {
  accountId: string;
  /** Start of the 10-minute bucket (ms), or of the second for the per-second rows. */
  bucket: number;
  /** Who called: `console` (a console session) or the API token's id. */
  client: string;
  endpoint: string;
  requests: number;
  rateLimited: number;
}

/** Counts summed over a span, per endpoint and client. */
export interface UsageRow {
  endpoint: string;
  client: string;
  requests: number;
  rateLimited: number;
}

/**
 * Which rows a read sums: the 10-minute buckets (kept 2 days), the daily ones (kept 35 days) or the
 * per-second ones (kept 2 minutes: the current rate-limit window).
 */
export type UsageGrain = 'bucket' | 'day' | 'second';

/**
 * Usage storage: counts are added (never overwritten), so any number of replicas can flush into it. Each
 * cell is added to its 10-minute bucket and to its UTC day, in one transaction.
 */
export interface UsageRepository {
  /** `seconds`: the same requests counted per second (`bucket` is the second's start), in the same transaction. */
  add(cells: readonly UsageCell[], seconds?: readonly UsageCell[]): Promise<void>;
  /** Per endpoint and client, the counts of the account's rows (of `grain`) starting at or after `sinceMs`. */
  totals(accountId: string, sinceMs: number, grain?: UsageGrain): Promise<UsageRow[]>;
  /** Deletes buckets that start before `bucketsBeforeMs`, days and seconds before theirs; returns how many. */
  prune(bucketsBeforeMs: number, daysBeforeMs?: number, secondsBeforeMs?: number): Promise<number>;
}

export const DAY_MS = 86_400_000;
export const dayOf = (ms: number): number => ms - (ms % DAY_MS);

/** The in-memory twin (unit tests). */
export function createMemoryUsageRepository(): UsageRepository & {
  cells: UsageCell[];
  days: UsageCell[];
  seconds: UsageCell[];
} {
  const cells: UsageCell[] = [];
  const days: UsageCell[] = [];
  const seconds: UsageCell[] = [];
  const addTo = (list: UsageCell[], c: UsageCell) => {
    const found = list.find(
      (x) =>
        x.accountId === c.accountId &&
        x.bucket === c.bucket &&
        x.endpoint === c.endpoint &&
        x.client === c.client,
    );
    if (found) {
      found.requests += c.requests;
      found.rateLimited += c.rateLimited;
    } else list.push({ ...c });
  };
  return {
    cells,
    days,
    seconds,
    async add(list, perSecond = []) {
      for (const c of list) {
        addTo(cells, c);
        addTo(days, { ...c, bucket: dayOf(c.bucket) });
      }
      for (const c of perSecond) addTo(seconds, c);
    },
    async totals(accountId, sinceMs, grain = 'bucket') {
      const by = new Map<string, UsageRow>();
      for (const c of grain === 'day' ? days : grain === 'second' ? seconds : cells) {
        if (c.accountId !== accountId || c.bucket < sinceMs) continue;
        const key = `${c.endpoint}\u0000${c.client}`;
        const entry = by.get(key) ?? { endpoint: c.endpoint, client: c.client, requests: 0, rateLimited: 0 };
        entry.requests += c.requests;
        entry.rateLimited += c.rateLimited;
        by.set(key, entry);
      }
      return [...by.values()];
    },
    async prune(bucketsBeforeMs, daysBeforeMs, secondsBeforeMs) {
      let n = 0;
      for (const [list, before] of [
        [cells, bucketsBeforeMs],
        [days, daysBeforeMs ?? Number.NEGATIVE_INFINITY],
        [seconds, secondsBeforeMs ?? Number.NEGATIVE_INFINITY],
      ] as const) {
        for (let i = list.length - 1; i >= 0; i--)
          if (list[i]!.bucket < before) {
            list.splice(i, 1);
            n++;
          }
      }
      return n;
    },
  };
}
