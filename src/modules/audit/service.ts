import type { Clock } from '../../shared/clock.ts';
import { decodeCursor, encodeCursor } from '../../shared/cursor.ts';
import { newId } from '../../shared/ids.ts';
import { type AuditEntryView, presentAuditEntry } from './present.ts';
import type { AuditRepository } from './repository.ts';
import type { AuditEntry, AuditLog, AuditQuery } from './types.ts';

export interface AuditServiceDeps {
  repo: AuditRepository;
  clock: Clock;
  /** Where an entry that could not be stored is reported (the action itself already happened). */
  log: { error(fields: object, message: string): void };
}

export type AuditFilter = Omit<AuditQuery, 'beforeSeq' | 'limit'>;

const EXPORT_PAGE = 500;

const readPosition = (value: unknown) =>
  typeof value === 'object' && value !== null && Number.isSafeInteger((value as { s?: unknown }).s)
    ? (value as { s: number }).s
    : undefined;

export type AuditService = ReturnType<typeof createAuditService>;

/** The audit log: `record` (the port other modules and routes call), pages for admins, the JSON-lines export. */
export function createAuditService(deps: AuditServiceDeps) {
  const { repo, clock } = deps;

  const record: AuditLog['record'] = async (entry: AuditEntry) => {
    const stored = {
      id: newId('aud'),
      at: clock.now(),
      action: entry.action,
      outcome: entry.outcome,
      actorId: entry.actorId,
      credential: entry.credential,
      address: entry.address,
      target: entry.target ?? null,
      detail: entry.detail ?? null,
    };
    try {
      await repo.append(stored);
    } catch (error) {
      // The action is done and must not be reported as failed; the missing entry is logged in its place.
      deps.log.error(
        {
          audit: { ...stored, detail: undefined },
          error: error instanceof Error ? error.message : String(error),
        },
        'audit entry not stored',
      );
    }
  };

  async function page(
    filter: AuditFilter,
    options: { limit: number; cursor?: string },
  ): Promise<{ data: AuditEntryView[]; nextCursor: string | null }> {
    const beforeSeq = options.cursor === undefined ? undefined : decodeCursor(options.cursor, readPosition);
    const rows = await repo.list({ ...filter, beforeSeq, limit: options.limit + 1 });
    const shown = rows.slice(0, options.limit);
    const last = shown.at(-1);
    return {
      data: shown.map(presentAuditEntry),
      nextCursor: rows.length > options.limit && last ? encodeCursor({ s: last.seq }) : null,
    };
  }

  /** Every matching entry, newest first, read a page at a time (the export streams it). */
  async function* all(filter: AuditFilter): AsyncGenerator<AuditEntryView> {
    let beforeSeq: number | undefined;
    for (;;) {
      const rows = await repo.list({ ...filter, beforeSeq, limit: EXPORT_PAGE });
      for (const row of rows) yield presentAuditEntry(row);
      if (rows.length < EXPORT_PAGE) return;
      beforeSeq = rows.at(-1)!.seq;
    }
  }

  return { record, page, all };
}
