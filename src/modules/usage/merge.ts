import type { UsageCell } from './repository.ts';

/** One cell per account, bucket, client and endpoint, with the counts of every cell given for it added up. */
export function mergeCells(cells: readonly UsageCell[]): UsageCell[] {
  const byKey = new Map<string, UsageCell>();
  for (const c of cells) {
    const key = `${c.accountId}\u0000${c.bucket}\u0000${c.client}\u0000${c.endpoint}`;
    const found = byKey.get(key);
    if (found) {
      found.requests += c.requests;
      found.rateLimited += c.rateLimited;
    } else byKey.set(key, { ...c });
  }
  return [...byKey.values()];
}
