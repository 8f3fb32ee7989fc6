/**
 * The event bus port. Embedded mode uses the in-process adapter; scaled mode uses Redis pub/sub so every
 * replica sees every event. Payloads are JSON-serializable values; handlers must not throw.
 */
export type BusHandler = (payload: unknown) => void;

export interface Bus {
  publish(topic: string, payload: unknown): Promise<void>;
  subscribe(topic: string, handler: BusHandler): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/** Topics in one place so producers and consumers cannot drift apart. */
export const topics = {
  tokenRevoked: 'accounts.token-revoked',
  marketSnapshot: 'market.snapshot',
  marketCandle: 'market.candle',
  onchainFlow: 'onchain.flow',
  /** `{ chain, ancestor, ids }`: flows a reorg orphaned, already announced on onchain.flow, now gone. */
  onchainFlowsRemoved: 'onchain.flows-removed',
  predictionsRefreshed: 'predictions.refreshed',
  /** `AccountEvent` (modules/events), published after the transaction that stored it commits. */
  accountEvent: 'account.event',
  /** `{ id }`: an alert rule was created, edited or deleted; the evaluator reloads it. */
  alertRuleChanged: 'alerts.rule-changed',
  /** `WorkerBeat` (app/worker-heartbeat.ts): every process running the jobs, every 5 s; API replicas listen. */
  workerHeartbeat: 'worker.heartbeat',
} as const;
