import type { ValidRow } from './rows.ts';

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
  /** Gives a claimed key up (the request failed without effect; a retry may run it). */
  releaseKey(accountId: string, key: string): Promise<void>;
  /** Deletes keys past their expiry; returns how many. */
  pruneKeys(now: number): Promise<number>;
}
