import type { LabelPosition, PrivateLabel } from './types.ts';

/** A label to store: new, or replacing the account's label for the same (chain, address). */
export type LabelWrite = Omit<PrivateLabel, 'createdAt' | 'updatedAt'> & { now: number };

export type UpsertResult = { kind: 'created' | 'replaced'; label: PrivateLabel } | { kind: 'limit' };

/**
 * The private labels port (`repository.kysely.ts` on PGlite and PostgreSQL). Every method takes the account:
 * none reaches another account's labels.
 */
export interface LabelsRepository {
  /**
   * Stores the label for (account, chain, address): replaces the name and kind of an existing one (keeping its
   * id), or adds it while the account holds fewer than `cap` — the count and the insert are one step.
   */
  upsert(write: LabelWrite, cap: number): Promise<UpsertResult>;
  /** Newest first, strictly after `after` when given. */
  list(
    accountId: string,
    query: { chain?: string; kind?: string; limit: number; after?: LabelPosition },
  ): Promise<PrivateLabel[]>;
  get(accountId: string, id: string): Promise<PrivateLabel | undefined>;
  remove(accountId: string, id: string): Promise<boolean>;
  /** The account's labels for any of these (chain, address) pairs (addresses lower-case). */
  forAddresses(accountId: string, chain: string, addresses: readonly string[]): Promise<PrivateLabel[]>;
}

const newer = (a: LabelPosition, b: LabelPosition) =>
  a.createdAt !== b.createdAt ? b.createdAt - a.createdAt : a.id < b.id ? 1 : a.id > b.id ? -1 : 0;

/** The in-memory twin, for unit tests. */
export function createMemoryLabelsRepository(): LabelsRepository {
  const rows = new Map<string, PrivateLabel>();
  const mine = (accountId: string) => [...rows.values()].filter((l) => l.accountId === accountId);
  return {
    async upsert(write, cap) {
      const { now, ...fields } = write;
      const existing = mine(write.accountId).find(
        (l) => l.chain === write.chain && l.address === write.address,
      );
      if (existing) {
        const label = { ...existing, kind: write.kind, name: write.name, updatedAt: now };
        rows.set(label.id, label);
        return { kind: 'replaced', label };
      }
      if (mine(write.accountId).length >= cap) return { kind: 'limit' };
      const label: PrivateLabel = { ...fields, createdAt: now, updatedAt: now };
      rows.set(label.id, label);
      return { kind: 'created', label };
    },
    async list(accountId, query) {
      return mine(accountId)
        .filter(
          (l) =>
            (query.chain === undefined || l.chain === query.chain) &&
            (query.kind === undefined || l.kind === query.kind),
        )
        .filter((l) => !query.after || newer(query.after, l) < 0)
        .sort(newer)
        .slice(0, query.limit);
    },
    async get(accountId, id) {
      const label = rows.get(id);
      return label?.accountId === accountId ? label : undefined;
    },
    async remove(accountId, id) {
      const label = rows.get(id);
      if (label?.accountId !== accountId) return false;
      return rows.delete(id);
    },
    async forAddresses(accountId, chain, addresses) {
      const wanted = new Set(addresses);
      return mine(accountId).filter((l) => l.chain === chain && wanted.has(l.address));
    },
  };
}
