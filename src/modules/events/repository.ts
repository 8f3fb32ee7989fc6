import type { LeaderTerm } from '../../shared/leadership.ts';
import type { AccountEvent } from './event.ts';

/** Read side of the account event log (writes happen inside the producer's transaction: `insertAccountEvents`). */
export interface EventsRepository {
  /** One account's events with `seq` greater than `afterSeq`, oldest first (the `/events` resume). */
  listForAccount(accountId: string, afterSeq: number, limit: number): Promise<AccountEvent[]>;
  /** Every account's events with `seq` greater than `afterSeq`, oldest first (the webhook sender's scan). */
  listAfter(afterSeq: number, limit: number): Promise<AccountEvent[]>;
  /** One event by its public id, only if it belongs to the account. */
  findForAccount(accountId: string, id: string): Promise<AccountEvent | undefined>;
  /**
   * Deletes events created before `beforeMs`; returns how many. With the retention job's leadership term the
   * delete is fenced by it (StaleLeaderError, nothing deleted, once the term is no longer current).
   */
  pruneBefore(beforeMs: number, term?: LeaderTerm): Promise<number>;
}

/** In-memory twin for unit tests of the code around the log. */
export function createMemoryEventsRepository(events: AccountEvent[] = []): EventsRepository & {
  add(event: Omit<AccountEvent, 'seq'>): AccountEvent;
} {
  let seq = events.reduce((max, e) => Math.max(max, e.seq), 0);
  const sorted = () => events.sort((a, b) => a.seq - b.seq);
  return {
    add(event) {
      const stored = { ...event, seq: ++seq };
      events.push(stored);
      return stored;
    },
    async listForAccount(accountId, afterSeq, limit) {
      return sorted()
        .filter((e) => e.accountId === accountId && e.seq > afterSeq)
        .slice(0, limit);
    },
    async listAfter(afterSeq, limit) {
      return sorted()
        .filter((e) => e.seq > afterSeq)
        .slice(0, limit);
    },
    async findForAccount(accountId, id) {
      return events.find((e) => e.id === id && e.accountId === accountId);
    },
    async pruneBefore(beforeMs) {
      const before = events.length;
      for (let i = events.length - 1; i >= 0; i--) if (events[i]!.createdAt < beforeMs) events.splice(i, 1);
      return before - events.length;
    },
  };
}
