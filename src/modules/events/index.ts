/**
 * The account event log's public face. Producers (alerts) append inside their own transaction with
 * `insertAccountEvents` and then announce on the bus topic `account.event`; consumers (the webhook sender, the
 * `/events` stream) read with the repository and wake on the bus.
 */
export {
  type AccountEvent,
  composeEvent,
  EVENT_TYPES,
  type EventBody,
  type EventType,
  type NewAccountEvent,
} from './event.ts';
export { type EventsTopics, eventsTopicDecoders } from './topics.ts';
export { createMemoryEventsRepository, type EventsRepository } from './repository.ts';
export { createKyselyEventsRepository, insertAccountEvents } from './repository.kysely.ts';
export type { AccountEventsTable, EventsTables } from './tables.ts';
