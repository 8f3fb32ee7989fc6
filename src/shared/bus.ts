/**
 * The event bus port. Embedded mode uses the in-process adapter; scaled mode uses Redis pub/sub so every
 * replica sees every event. Payloads are JSON-serializable values; handlers must not throw.
 *
 * The port is generic over a topic map (topic name → payload type), so `publish` and `subscribe` are checked
 * by the compiler. The names are below; the payload of each is declared by the module that owns it, and the
 * one table of every topic, its payload type and its decoder is `app/bus-topics.ts` (docs/architecture.md,
 * "The bus"). A consumer takes a `Bus` over only the topics it uses, with its own (possibly narrower) view
 * of their payloads; handing it the process's `Bus<Topics>` fails to compile if the views disagree.
 */
export interface Bus<M> {
  publish<T extends keyof M & string>(topic: T, payload: M[T]): Promise<void>;
  subscribe<T extends keyof M & string>(
    topic: T,
    handler: (payload: M[T]) => void,
  ): Promise<() => Promise<void>>;
  close(): Promise<void>;
}

/**
 * Per topic: turns a value parsed from JSON into the topic's payload, or `undefined` when its shape is wrong.
 * Used where a payload arrives from outside the process (the Redis adapter); in-process values are typed.
 */
export type TopicDecoders<M> = { [T in keyof M]: (raw: unknown) => M[T] | undefined };

/** Topic names in one place so producers and consumers cannot drift apart. */
export const topics = {
  tokenRevoked: 'accounts.token-revoked',
  marketSnapshot: 'market.snapshot',
  marketCandle: 'market.candle',
  onchainFlow: 'onchain.flow',
  /** Flows a reorg orphaned, already announced on onchain.flow, now gone. */
  onchainFlowsRemoved: 'onchain.flows-removed',
  predictionsRefreshed: 'predictions.refreshed',
  /** Published after the transaction that stored the event commits. */
  accountEvent: 'account.event',
  /** An alert rule was created, edited or deleted; the evaluator reloads it. */
  alertRuleChanged: 'alerts.rule-changed',
  /** `WorkerBeat` (app/worker-heartbeat.ts): every process running the jobs, every 5 s; API replicas listen. */
  workerHeartbeat: 'worker.heartbeat',
  /** `DerivativesUpdate`: the derivatives job after each refresh; API replicas and /market push listen. */
  derivativesUpdate: 'derivatives.update',
} as const;

export type TopicName = (typeof topics)[keyof typeof topics];

/** For decoders: a JSON object (not null, not an array). */
export const isRecord = (x: unknown): x is Record<string, unknown> =>
  typeof x === 'object' && x !== null && !Array.isArray(x);
