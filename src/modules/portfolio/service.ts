import type { LeaderTerm } from '../../shared/leadership.ts';
import { createHash } from 'node:crypto';
import type { Clock } from '../../shared/clock.ts';
import { AppError, type ProblemDetail } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import { readCsvRows } from './csv.ts';
import { MAX_IMPORT_ROWS, ROW_FIELDS, type RawRow, type RowField, type RowProblem } from './types.ts';
import { type PricePort, computeHoldings } from './holdings.ts';
import type { ImportCounts, PortfolioRepository } from './repository.ts';
import { type ValidRow, sameContent, validateRows } from './rows.ts';
import { createKeyReleases } from './key-releases.ts';

/** Idempotency keys are kept this long per account (as Stripe does). */
export const IDEMPOTENCY_TTL_MS = 24 * 3_600_000;
/** A claim still `running` after this long belongs to a request that died; a retry may take it over. */
export const IDEMPOTENCY_STALE_MS = 60_000;

export type ImportBody =
  | { kind: 'json'; rows: RawRow[]; schemaProblems: RowProblem[] }
  | { kind: 'csv'; text: string };

export interface ImportRequest {
  accountId: string;
  body: ImportBody;
  dryRun: boolean;
  idempotencyKey?: string;
}

/** The answer to an import: status and the exact body bytes (a replay sends the first answer's bytes). */
export interface ImportAnswer {
  status: number;
  body: string;
  replayed: boolean;
}

export interface PortfolioServiceDeps {
  repo: PortfolioRepository;
  clock: Clock;
  prices: PricePort;
  /** Asset tickers known besides the built-in list (the supported symbols' bases). */
  extraAssets: () => readonly string[];
  log?: (message: string, fields: Record<string, unknown>) => void;
  /** Background retry period of idempotency-key releases that failed (default 1 s). */
  releaseRetryMs?: number;
}

const idempotencyKeyPattern = /^[\x21-\x7e]{1,255}$/;

export function createPortfolioService(deps: PortfolioServiceDeps) {
  const { repo, clock, prices } = deps;
  const listeners = new Set<(accountId: string) => void>();
  const changed = (accountId: string) => {
    for (const listener of listeners) listener(accountId);
  };
  const releases = createKeyReleases({
    release: (accountId, key, claimedAt) => repo.releaseKey(accountId, key, claimedAt),
    now: () => clock.now(),
    staleMs: IDEMPOTENCY_STALE_MS,
    retryMs: deps.releaseRetryMs,
    log: deps.log,
  });

  async function readRows(body: ImportBody) {
    if (body.kind === 'json') {
      if (body.rows.length > MAX_IMPORT_ROWS) throw tooManyRows(body.rows.length);
      return {
        rows: body.rows,
        schemaProblems: body.schemaProblems,
        columns: undefined,
        lines: undefined,
        ignoredColumns: undefined,
      };
    }
    const csv = await readCsvRows(body.text);
    return { ...csv, schemaProblems: [] as RowProblem[] };
  }

  async function validate(request: ImportRequest) {
    const read = await readRows(request.body);
    if (read.rows.length === 0) {
      throw new AppError('validation_failed', 'the import has no rows', {
        errors: [{ pointer: '/body/rows', message: 'must hold at least one row' }],
      });
    }
    const skip = new Set(read.schemaProblems.map((p) => p.row - 1));
    const { valid, problems } = validateRows(read.rows, {
      now: clock.now(),
      extraAssets: deps.extraAssets(),
      skip,
      columns: read.columns,
      lines: read.lines,
    });
    const all = [...read.schemaProblems, ...problems].sort(
      (a, b) => a.row - b.row || fieldOrder(a.field) - fieldOrder(b.field),
    );
    if (all.length) throw rowErrors(all);
    return { valid, format: request.body.kind, ignoredColumns: read.ignoredColumns };
  }

  async function importRows(request: ImportRequest): Promise<ImportAnswer> {
    const key = request.idempotencyKey;
    if (key !== undefined && !idempotencyKeyPattern.test(key)) {
      throw new AppError(
        'validation_failed',
        'the Idempotency-Key header must be 1 to 255 visible ASCII characters',
        {
          errors: [
            { pointer: '/headers/idempotency-key', message: 'must be 1 to 255 visible ASCII characters' },
          ],
        },
      );
    }
    // Validation first: a request refused as invalid does nothing, so it does not use up its key.
    const { valid, format, ignoredColumns } = await validate(request);
    const answerOf = (counts: ImportCounts, importId: string | null) => ({
      status: request.dryRun ? 200 : 201,
      body: JSON.stringify({
        importId,
        ...counts,
        rows: valid.length,
        dryRun: request.dryRun,
        format,
        ...(ignoredColumns ? { ignoredColumns } : {}),
      }),
    });

    // When the key's claim is made, so a failed request releases that claim and no later one.
    const claimedAt = clock.now();
    if (key !== undefined) {
      // A release of this key that failed earlier (storage was down) is attempted first.
      await releases.settle(request.accountId, key);
      const claim = await repo.claimKey({
        accountId: request.accountId,
        key,
        fingerprint: fingerprintOf(request),
        now: claimedAt,
        ttlMs: IDEMPOTENCY_TTL_MS,
        staleMs: IDEMPOTENCY_STALE_MS,
      });
      if (claim.kind === 'replay') return { status: claim.status, body: claim.body, replayed: true };
      if (claim.kind === 'mismatch') {
        throw new AppError(
          'idempotency_key_reused',
          'this Idempotency-Key was already used with a different request; use a new key for a new request',
        );
      }
      if (claim.kind === 'running') {
        throw new AppError(
          'idempotency_key_in_use',
          'a request with this Idempotency-Key is still being processed; retry once it has finished',
          { headers: { 'retry-after': '1' } },
        );
      }
    }

    try {
      if (request.dryRun) {
        const answer = answerOf(await wouldWrite(request.accountId, valid), null);
        if (key !== undefined) await repo.completeKey(request.accountId, key, answer);
        return { ...answer, replayed: false };
      }
      const importId = newId('imp');
      let answer: { status: number; body: string } | undefined;
      await repo.applyImport({
        accountId: request.accountId,
        importId,
        format,
        rows: valid,
        idempotencyKey: key ?? null,
        now: clock.now(),
        newIds: valid.map(() => newId('row')),
        answer: (counts) => {
          answer = answerOf(counts, importId);
          return answer;
        },
      });
      changed(request.accountId);
      return { ...answer!, replayed: false };
    } catch (error) {
      // Nothing was stored (the transaction rolled back): give the key up so a retry can run it (now, or at
      // the next occasion when storage is still unreachable: key-releases.ts).
      if (key !== undefined) await releases.release(request.accountId, key, claimedAt);
      throw error;
    }
  }

  /** What an import would do, without doing it (dry run): read-only comparison with the stored rows. */
  async function wouldWrite(accountId: string, rows: readonly ValidRow[]): Promise<ImportCounts> {
    const stored = new Map(
      (await repo.rows(accountId)).filter((r) => r.externalId !== null).map((r) => [r.externalId!, r]),
    );
    const counts: ImportCounts = { inserted: 0, updated: 0, unchanged: 0 };
    for (const row of rows) {
      const existing = row.externalId === null ? undefined : stored.get(row.externalId);
      if (!existing) counts.inserted++;
      else if (sameContent(existing, row)) counts.unchanged++;
      else counts.updated++;
    }
    return counts;
  }

  return {
    importRows,
    /** Positions per asset valued at the market's consolidated mid, with totals. */
    async holdings(accountId: string) {
      const rows = await repo.rows(accountId);
      return { ...computeHoldings(rows, prices), asOf: clock.now() };
    },
    rows: (accountId: string) => repo.rows(accountId),
    imports: (accountId: string, limit: number) => repo.imports(accountId, limit),
    async deleteRow(accountId: string, id: string): Promise<void> {
      // Another account's row answers exactly like a missing one.
      if (!(await repo.deleteRow(accountId, id)))
        throw new AppError('not_found', `no portfolio row with id ${id}`);
      changed(accountId);
    },
    async reset(accountId: string): Promise<number> {
      const deleted = await repo.deleteAll(accountId);
      changed(accountId);
      return deleted;
    },
    /** Called after every change to an account's rows (analytics drops its cached answer). */
    onChange(listener: (accountId: string) => void): () => void {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    pruneIdempotencyKeys: (term?: LeaderTerm) => repo.pruneKeys(clock.now(), term),
  };
}

export type PortfolioService = ReturnType<typeof createPortfolioService>;

/** What makes two requests "the same" for an idempotency key: the dry-run flag, the format and the body. */
function fingerprintOf(request: ImportRequest): string {
  const body = request.body.kind === 'json' ? JSON.stringify(request.body.rows) : request.body.text;
  return createHash('sha256')
    .update(`${request.dryRun ? 'dry' : 'run'}|${request.body.kind}|`)
    .update(body)
    .digest('base64url');
}

const fieldOrder = (field: RowField | undefined) => (field ? ROW_FIELDS.indexOf(field) : -1);

function tooManyRows(count: number): AppError {
  return new AppError(
    'payload_too_large',
    `an import holds at most ${MAX_IMPORT_ROWS} rows; this one has ${count}`,
    {
      extra: { maxRows: MAX_IMPORT_ROWS },
    },
  );
}

function rowErrors(problems: RowProblem[]): AppError {
  const rows = new Set(problems.map((p) => p.row)).size;
  const shown = problems
    .slice(0, 5)
    .map((p) => `row ${p.row}${p.field ? ` ${p.field}` : ''}: ${p.message}`)
    .join('; ');
  const more = problems.length > 5 ? `; and ${problems.length - 5} more` : '';
  return new AppError(
    'validation_failed',
    `${problems.length} problem${problems.length === 1 ? '' : 's'} in ${rows} row${rows === 1 ? '' : 's'}, nothing was imported: ${shown}${more}`,
    { errors: problems satisfies ProblemDetail[] },
  );
}
