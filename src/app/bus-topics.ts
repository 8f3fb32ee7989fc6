import { type AccountsTopics, accountsTopicDecoders } from '../modules/accounts/index.ts';
import { type AlertsTopics, alertsTopicDecoders } from '../modules/alerts/index.ts';
import { type DerivativesTopics, derivativesTopicDecoders } from '../modules/derivatives/index.ts';
import { type EventsTopics, eventsTopicDecoders } from '../modules/events/index.ts';
import { type MarketTopics, marketTopicDecoders } from '../modules/market/index.ts';
import { type OnchainTopics, onchainTopicDecoders } from '../modules/onchain/index.ts';
import { type PredictionsTopics, predictionsTopicDecoders } from '../modules/predictions/index.ts';
import type { Bus, TopicDecoders, TopicName } from '../shared/bus.ts';
import { type WorkerTopics, workerTopicDecoders } from './worker-heartbeat.ts';

/**
 * The one table of bus topics: every topic name (shared/bus.ts `topics`) → its payload type, declared by the
 * module that owns the payload (`modules/<m>/topics.ts`, as `tables.ts` declares its tables; the worker
 * heartbeat, which belongs to no module, in app/worker-heartbeat.ts). The process's
 * bus is a `Bus<Topics>`; each producer and consumer takes a `Bus` over just its topics.
 *
 * | topic | payload | published by | heard by |
 * |---|---|---|---|
 * | accounts.token-revoked | `CredentialsChanged` | accounts (app/accounts.ts `announceOn`, CLI) | container (token cache), push hubs |
 * | market.snapshot | `MarketSnapshotMessage` | market job (app/market.ts) | followers (app/market.ts), alerts evaluator, /market push |
 * | market.candle | `CandleClosed` (merged) | market job (app/market.ts) | alerts evaluator |
 * | onchain.flow | `FlowView` | on-chain indexer | alerts evaluator |
 * | onchain.flows-removed | `FlowsRemoved` | on-chain indexer (reorg) | alerts evaluator |
 * | predictions.refreshed | `PredictionDatapoint[]` | predictions refresh job | followers (app/predictions.ts), /predictions push |
 * | account.event | `AccountEvent` | alerts (service, evaluator) | webhook sender, /events push |
 * | alerts.rule-changed | `AlertRuleChanged` | alerts service | alerts evaluator |
 * | derivatives.update | `DerivativesUpdate` | derivatives job (app/derivatives.ts) | followers (app/derivatives.ts), /market push |
 * | worker.heartbeat | `WorkerBeat` (app/worker-heartbeat.ts) | every process running the jobs | API replicas (/readyz) |
 */
export type Topics = AccountsTopics &
  AlertsTopics &
  DerivativesTopics &
  EventsTopics &
  MarketTopics &
  OnchainTopics &
  PredictionsTopics &
  WorkerTopics;

export type AppBus = Bus<Topics>;

/**
 * Each topic's decoder, for the Redis adapter (payloads from another process arrive as JSON). Typed over
 * every name in `topics`, so a topic without a payload type or a decoder does not compile.
 */
export const topicDecoders: { [T in TopicName]: TopicDecoders<Topics>[T] } = {
  ...accountsTopicDecoders,
  ...alertsTopicDecoders,
  ...derivativesTopicDecoders,
  ...eventsTopicDecoders,
  ...marketTopicDecoders,
  ...onchainTopicDecoders,
  ...predictionsTopicDecoders,
  ...workerTopicDecoders,
};
