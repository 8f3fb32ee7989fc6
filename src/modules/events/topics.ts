import { isRecord, type TopicDecoders, topics } from '../../shared/bus.ts';
import { type AccountEvent, EVENT_TYPES } from './event.ts';

/** `account.event`: an event of the log, published by its producer after the transaction that stored it. */
export interface EventsTopics {
  [topics.accountEvent]: AccountEvent;
}

function isAccountEvent(x: unknown): x is AccountEvent {
  return (
    isRecord(x) &&
    typeof x.seq === 'number' &&
    typeof x.id === 'string' &&
    typeof x.accountId === 'string' &&
    EVENT_TYPES.some((t) => t === x.type) &&
    typeof x.body === 'string' &&
    typeof x.test === 'boolean' &&
    typeof x.createdAt === 'number'
  );
}

export const eventsTopicDecoders: TopicDecoders<EventsTopics> = {
  [topics.accountEvent]: (raw) => (isAccountEvent(raw) ? raw : undefined),
};
