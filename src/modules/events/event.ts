import { newId } from '../../shared/ids.ts';

/** Event types an account can receive, by webhook and on the `/events` stream. */
export const EVENT_TYPES = ['alert.triggered', 'onchain.flow', 'alert.capped'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** Version of the event body below; bumped only on a breaking change, announced in the body itself. */
const EVENT_BODY_VERSION = 1;

/** An event as stored and delivered. `body` is the JSON text every consumer receives byte for byte. */
export interface AccountEvent {
  seq: number;
  id: string;
  accountId: string;
  type: EventType;
  body: string;
  test: boolean;
  createdAt: number;
}

export interface NewAccountEvent {
  accountId: string;
  type: EventType;
  /** The event's `data` member: what happened (rule, trigger, market or flow figures). */
  data: Record<string, unknown>;
  test?: boolean;
}

/** The versioned envelope, as in Standard Webhooks' recommended shape: `{ id, type, timestamp, data }`. */
export interface EventBody {
  id: string;
  type: EventType;
  version: number;
  timestamp: string;
  test: boolean;
  data: Record<string, unknown>;
}

/** Builds the stored form of a new event: a fresh `evt_…` id and its body text, created at `atMs`. */
export function composeEvent(event: NewAccountEvent, atMs: number): Omit<AccountEvent, 'seq'> {
  const id = newId('evt');
  const test = event.test ?? false;
  const body: EventBody = {
    id,
    type: event.type,
    version: EVENT_BODY_VERSION,
    timestamp: new Date(atMs).toISOString(),
    test,
    data: event.data,
  };
  return {
    id,
    accountId: event.accountId,
    type: event.type,
    body: JSON.stringify(body),
    test,
    createdAt: atMs,
  };
}
