import type { Generated } from 'kysely';

/**
 * One row per event an account receives (an alert firing, an on-chain flow it asked for, a follow-up). `seq` is
 * the global order (the webhook sender's cursor, the `/events` resume order); `body` is the exact JSON text
 * delivered — signed and sent as stored, never re-serialized.
 */
export interface AccountEventsTable {
  seq: Generated<number>;
  id: string;
  account_id: string;
  type: string;
  body: string;
  test: boolean;
  created_at: number;
}

export interface EventsTables {
  account_events: AccountEventsTable;
}
