import type { LeaderTerm } from '../../shared/leadership.ts';
import { type ValidRow, sameContent } from './rows.ts';

/** A stored portfolio row. */
export interface PortfolioRow extends ValidRow {
  id: string;
  importId: string;
  createdAt: number;
  updatedAt: number;
}

export interface ImportRecord {
  id: string;
  format: 'json' | 'csv';
  rowCount: number;
  inserted: number;
  updated: number;
  unchanged: number;
  idempotencyKey: string | null;
  createdAt: number;
}

export interface ImportCounts {
  inserted: number;
  updated: number;
  unchanged: number;
}

/** What an import asks storage to do, atomically. */
export interface ImportWrite {
  accountId: string;
  importId: string;
  format: 'json' | 'csv';
  rows: readonly ValidRow[];
  idempotencyKey: string | null;
  now: number;
  /** New row ids, one per row (used for rows that are inserted). */
  newIds: readonly string[];
  /** The answer to store with the idempotency key, in the same transaction (given the counts). */
  answer?: (counts: ImportCounts) => { status: number; body: string };
}

export type KeyClaim =
  | { kind: 'claimed' }
  | { kind: 'replay'; status: number; body: string }
  | { kind: 'mismatch' }
  | { kind: 'running' };

/**
 * The portfolio repository port (`repository.kysely.ts` on PGlite and PostgreSQL). Rows, imports and
 * idempotency keys are per account; no method reaches another account's data.
 */
export interface PortfolioRepository {
  rows(accountId: string): Promise<PortfolioRow[]>;
  /**
   * Stores an import in one transaction: rows with an `externalId` already held by the account are
   * updated (or left alone when identical), the others inserted; the import record and the idempotency
   * answer are written with them. Nothing is written when any step fails.
   */
  applyImport(write: ImportWrite): Promise<ImportCounts>;
  imports(accountId: string, limit: number): Promise<ImportRecord[]>;
  deleteRow(accountId: string, id: string): Promise<boolean>;
  deleteAll(accountId: string): Promise<number>;

  /**
   * Claims an idempotency key for a request with this fingerprint: `claimed` (go ahead), `replay` (the first
   * request's answer), `mismatch` (the key was used with another request) or `running` (the first request
   * is still in flight). Expired keys, and claims left `running` longer than `staleMs` (a process that died
   * mid-request), are taken over.
   */
  claimKey(input: {
    accountId: string;
    key: string;
    fingerprint: string;
    now: number;
    ttlMs: number;
    staleMs: number;
  }): Promise<KeyClaim>;
  /** Stores the answer of a claimed key outside an import (a dry run). */
  completeKey(accountId: string, key: string, answer: { status: number; body: string }): Promise<void>;
  /**
   * Gives a claimed key up (the request failed without effect; a retry may run it). With `claimedAt` (the
   * `now` of the claim) only that claim is given up, not one a later request made since.
   */
  releaseKey(accountId: string, key: string, claimedAt?: number): Promise<void>;
  /**
   * Deletes expired idempotency keys; returns how many. With the pruner's leadership term the delete is
   * fenced by it (StaleLeaderError, nothing deleted, once the term is no longer current).
   */
  pruneKeys(now: number, term?: LeaderTerm): Promise<number>;
}

/**
 * The in-memory twin (unit tests of the service). Atomic by construction: an import is applied to copies
 * and swapped in only when every step succeeded; `failNextImport` makes the next import fail midway.
 */
export function createMemoryPortfolioRepository(): PortfolioRepository & { failNextImport: boolean } {
  type Key = {
    fingerprint: string;
    state: 'running' | 'done';
    status: number | null;
    body: string | null;
    createdAt: number;
    expiresAt: number;
  };
  let rows: Array<PortfolioRow & { accountId: string }> = [];
  const imports: Array<ImportRecord & { accountId: string }> = [];
  const keys = new Map<string, Key>();
  const keyOf = (accountId: string, key: string) => `${accountId}\u0000${key}`;
  const repo = {
    failNextImport: false,
    async rows(accountId: string) {
      return rows.filter((r) => r.accountId === accountId).map(({ accountId: _, ...r }) => r);
    },
    async applyImport(write: ImportWrite) {
      const next = rows.map((r) => ({ ...r }));
      const counts: ImportCounts = { inserted: 0, updated: 0, unchanged: 0 };
      write.rows.forEach((row, i) => {
        const stored = next.find(
          (r) =>
            r.accountId === write.accountId && row.externalId !== null && r.externalId === row.externalId,
        );
        if (stored && sameContent(stored, row)) counts.unchanged++;
        else if (stored) {
          counts.updated++;
          Object.assign(stored, row, { importId: write.importId, updatedAt: write.now });
        } else {
          counts.inserted++;
          next.push({
            ...row,
            id: write.newIds[i]!,
            accountId: write.accountId,
            importId: write.importId,
            createdAt: write.now,
            updatedAt: write.now,
          });
        }
      });
      if (repo.failNextImport) {
        repo.failNextImport = false;
        throw new Error('storage failed mid-import');
      }
      const answer = write.answer?.(counts);
      if (write.idempotencyKey !== null && answer) {
        const k = keys.get(keyOf(write.accountId, write.idempotencyKey));
        if (k) Object.assign(k, { state: 'done', status: answer.status, body: answer.body });
      }
      rows = next;
      imports.push({
        id: write.importId,
        accountId: write.accountId,
        format: write.format,
        rowCount: write.rows.length,
        ...counts,
        idempotencyKey: write.idempotencyKey,
        createdAt: write.now,
      });
      return counts;
    },
    async imports(accountId: string, limit: number) {
      return imports
        .filter((i) => i.accountId === accountId)
        .reverse()
        .slice(0, limit)
        .map(({ accountId: _, ...i }) => i);
    },
    async deleteRow(accountId: string, id: string) {
      const before = rows.length;
      rows = rows.filter((r) => !(r.accountId === accountId && r.id === id));
      return rows.length < before;
    },
    async deleteAll(accountId: string) {
      const before = rows.length;
      rows = rows.filter((r) => r.accountId !== accountId);
      return before - rows.length;
    },
    async claimKey(input: Parameters<PortfolioRepository['claimKey']>[0]): Promise<KeyClaim> {
      const id = keyOf(input.accountId, input.key);
      const found = keys.get(id);
      const abandoned = found?.state === 'running' && found.createdAt <= input.now - input.staleMs;
      if (!found || found.expiresAt <= input.now || abandoned) {
        keys.set(id, {
          fingerprint: input.fingerprint,
          state: 'running',
          status: null,
          body: null,
          createdAt: input.now,
          expiresAt: input.now + input.ttlMs,
        });
        return { kind: 'claimed' };
      }
      if (found.fingerprint !== input.fingerprint) return { kind: 'mismatch' };
      if (found.state === 'running') return { kind: 'running' };
      return { kind: 'replay', status: found.status!, body: found.body! };
    },
    async completeKey(accountId: string, key: string, answer: { status: number; body: string }) {
      const k = keys.get(keyOf(accountId, key));
      if (k) Object.assign(k, { state: 'done', status: answer.status, body: answer.body });
    },
    async releaseKey(accountId: string, key: string, claimedAt?: number) {
      const found = keys.get(keyOf(accountId, key));
      if (found?.state === 'running' && (claimedAt === undefined || found.createdAt === claimedAt))
        keys.delete(keyOf(accountId, key));
    },
    async pruneKeys(now: number) {
      let n = 0;
      for (const [id, k] of keys) if (k.expiresAt <= now && keys.delete(id)) n++;
      return n;
    },
  };
  return repo;
}
