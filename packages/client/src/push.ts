import type { components, paths } from './schema.gen.ts';

export type PredictionDatapoint = components['schemas']['PredictionDatapoint'];
/** An account event (`/events` stream and webhooks), told apart by its `type`. */
export type AccountEvent =
  | components['schemas']['AlertTriggeredEvent']
  | components['schemas']['OnchainFlowEvent'];
/** One symbol's market aggregate, as `GET /api/market-data` lists it. */
export type MarketItem =
  paths['/api/market-data']['get']['responses'][200]['content']['application/json']['data'][number];

/** A `/market` frame: every subscribed symbol, with the provenance REST sends as headers. */
export interface MarketSnapshot {
  type: 'snapshot';
  /** When the snapshot was published, on the market's clock. */
  at: string;
  /** simulated, replay or ccxt:<venue+venue> (as `Meridian-Source`). */
  source: string;
  asOf: string | null;
  stale: boolean;
  data: MarketItem[];
}

/** The part of the WebSocket API used here: the browser's global and Node's `ws` both provide it. */
interface Socket {
  readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  onopen: ((event: unknown) => void) | null;
  onmessage: ((event: { data: unknown }) => void) | null;
  onclose: ((event: { code: number; reason: string }) => void) | null;
  onerror: ((event: unknown) => void) | null;
}
type SocketFactory = (url: string, token: string | undefined) => Promise<Socket>;

/** Node (no usable global WebSocket, or one that cannot send headers): `ws` with the Bearer header. */
const defaultFactory: SocketFactory = async (url, token) => {
  const isBrowser = typeof (globalThis as { document?: unknown }).document !== 'undefined';
  if (isBrowser && typeof globalThis.WebSocket === 'function') {
    // Browsers cannot set Authorization: the token travels as a subprotocol next to meridian.v1.
    return new globalThis.WebSocket(url, token ? ['meridian.v1', token] : undefined) as unknown as Socket;
  }
  const { default: WebSocket } = await import('ws');
  return new WebSocket(url, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
  }) as unknown as Socket;
};

export interface PushOptions {
  baseUrl: string;
  token?: string;
  /** First reconnect delay ceiling; doubled per failed attempt (full jitter), up to `maxDelayMs`. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** An application ping every this often; no message at all for `heartbeatTimeoutMs` → reconnect. */
  heartbeatIntervalMs?: number;
  heartbeatTimeoutMs?: number;
  /** Called on every (re)connection state change, e.g. for logging. */
  onStatus?: (status: PushStatus) => void;
  socketFactory?: SocketFactory;
}

export type PushStatus =
  | { state: 'open'; reconnects: number }
  | { state: 'reconnecting'; attempt: number; delayMs: number; reason: string };

/** Per subscription: the state changes of this one channel (beside the client-wide `onStatus`). */
export interface SubscribeOptions {
  onStatus?: (status: PushStatus) => void;
}

/** Close codes after which reconnecting cannot help (credentials ended). */
const fatalCloseCodes = new Set([4401]);

export class PushClosedError extends Error {
  constructor(
    readonly code: number,
    reason: string,
  ) {
    super(`push channel closed for good (${code}${reason ? `: ${reason}` : ''})`);
    this.name = 'PushClosedError';
  }
}

interface StreamSpec<T> {
  path: string;
  query(): Record<string, string | undefined>;
  /** Messages sent after every (re)connection, e.g. the subscription. */
  onOpen?(send: (message: unknown) => void): void;
  /** Whether the channel answers `{ "type": "ping" }` (else only the server's protocol pings show life). */
  appPing: boolean;
  /** A message for the consumer, or undefined for protocol replies. */
  accept(message: Record<string, unknown>): T | undefined;
}

/**
 * One resilient socket exposed as an async iterator: reconnects with exponential backoff and full jitter,
 * re-sends the subscription on each new connection, and treats silence past the heartbeat timeout as a lost
 * connection. Hand-written because no maintained library combines these with `ws` in Node and the browser.
 */
function stream<T>(
  spec: StreamSpec<T>,
  options: PushOptions,
  subscribeOptions: SubscribeOptions = {},
): AsyncIterableIterator<T> {
  const report = (status: PushStatus) => {
    options.onStatus?.(status);
    subscribeOptions.onStatus?.(status);
  };
  const factory = options.socketFactory ?? defaultFactory;
  const initialDelay = options.initialDelayMs ?? 250;
  const maxDelay = options.maxDelayMs ?? 30_000;
  const heartbeatInterval = options.heartbeatIntervalMs ?? 15_000;
  // Without application pings only the server's protocol pings (every 30 s) show that the link is alive.
  const heartbeatTimeout =
    options.heartbeatTimeoutMs ?? (spec.appPing ? heartbeatInterval * 2 + 5_000 : 65_000);
  const queue: T[] = [];
  const waiting: { resolve(r: IteratorResult<T>): void; reject(e: unknown): void }[] = [];
  let failure: unknown;
  let stopped = false;
  let socket: Socket | undefined;
  let attempt = 0;
  let reconnects = 0;
  let timers: ReturnType<typeof setInterval>[] = [];

  const deliver = (value: T) => {
    const next = waiting.shift();
    if (next) next.resolve({ value, done: false });
    else queue.push(value);
  };
  const finish = (error?: unknown) => {
    stopped = true;
    failure = error;
    for (const t of timers) clearInterval(t);
    for (const w of waiting.splice(0)) error ? w.reject(error) : w.resolve({ value: undefined, done: true });
  };

  const url = () => {
    const base = options.baseUrl.replace(/^http/, 'ws').replace(/\/+$/, '');
    const params = new URLSearchParams();
    for (const [k, v] of Object.entries(spec.query())) if (v !== undefined) params.set(k, v);
    const q = params.toString();
    return `${base}${spec.path}${q ? `?${q}` : ''}`;
  };

  const scheduleReconnect = (reason: string) => {
    for (const t of timers) clearInterval(t);
    timers = [];
    if (stopped) return;
    const ceiling = Math.min(maxDelay, initialDelay * 2 ** attempt);
    const delayMs = Math.round(Math.random() * ceiling);
    attempt++;
    report({ state: 'reconnecting', attempt, delayMs, reason });
    setTimeout(connect, delayMs);
  };

  async function connect() {
    if (stopped) return;
    let ws: Socket;
    try {
      ws = await factory(url(), options.token);
    } catch (error) {
      scheduleReconnect(String(error));
      return;
    }
    socket = ws;
    let lastMessage = Date.now();
    let closed = false;
    const lost = (reason: string) => {
      if (closed) return;
      closed = true;
      scheduleReconnect(reason);
    };
    ws.onopen = () => {
      lastMessage = Date.now();
      if (attempt > 0 || reconnects > 0) reconnects++;
      attempt = 0;
      report({ state: 'open', reconnects });
      spec.onOpen?.((m) => ws.send(JSON.stringify(m)));
      timers.push(
        setInterval(() => {
          if (Date.now() - lastMessage > heartbeatTimeout) {
            ws.close(4000, 'heartbeat lost');
            lost('heartbeat lost');
            return;
          }
          if (spec.appPing && ws.readyState === 1) ws.send(JSON.stringify({ type: 'ping' }));
        }, heartbeatInterval),
      );
    };
    ws.onmessage = (event) => {
      lastMessage = Date.now();
      let message: Record<string, unknown>;
      try {
        message = JSON.parse(String(event.data));
      } catch {
        return;
      }
      const value = spec.accept(message);
      if (value !== undefined) deliver(value);
    };
    ws.onerror = () => {};
    // Node's `ws` shows the server's protocol pings (browsers answer them invisibly).
    (ws as unknown as { on?(event: string, listener: () => void): void }).on?.('ping', () => {
      lastMessage = Date.now();
    });
    ws.onclose = (event) => {
      if (stopped) return;
      if (fatalCloseCodes.has(event.code)) {
        closed = true;
        finish(new PushClosedError(event.code, event.reason));
        return;
      }
      lost(`closed ${event.code}`);
    };
  }

  void connect();

  return {
    next() {
      const value = queue.shift();
      if (value !== undefined) return Promise.resolve({ value, done: false });
      if (stopped)
        return failure ? Promise.reject(failure) : Promise.resolve({ value: undefined, done: true });
      return new Promise((resolve, reject) => waiting.push({ resolve, reject }));
    },
    async return() {
      finish();
      socket?.close(1000, 'client done');
      return { value: undefined, done: true };
    },
    [Symbol.asyncIterator]() {
      return this;
    },
  };
}

export interface PredictionsSubscription {
  /** Symbols (any accepted spelling); default every supported symbol. */
  symbol?: string | string[];
  /** Horizons (1h, 4h, 24h …); default every horizon. */
  horizon?: string | string[];
}

const asList = (value: string | string[] | undefined) =>
  value === undefined ? undefined : Array.isArray(value) ? value : [value];

/** `/predictions`: yields each `{ data: [datapoints] }` refresh within the subscription. */
export function subscribePredictions(
  subscription: PredictionsSubscription,
  options: PushOptions,
  subscribeOptions?: SubscribeOptions,
) {
  const symbols = asList(subscription.symbol);
  const horizons = asList(subscription.horizon);
  return stream<{ data: PredictionDatapoint[] }>(
    {
      path: '/predictions',
      appPing: true,
      // Narrowed from the handshake on: a refresh that lands before the subscribe message is read would
      // otherwise reach this socket under the default subscription (everything).
      query: () => ({ symbol: symbols?.join(','), horizon: horizons?.join(',') }),
      // The first subscribe on a fresh connection replaces the default (everything): sent on every reconnect.
      onOpen: (send) => send({ type: 'subscribe', id: 'sdk', symbols, horizons }),
      accept: (m) => (Array.isArray(m.data) ? (m as { data: PredictionDatapoint[] }) : undefined),
    },
    options,
    subscribeOptions,
  );
}

/** `/events`: yields each account event; a reconnect resumes after the last event received (`after`). */
export function subscribeEvents(
  start: { after?: string },
  options: PushOptions,
  subscribeOptions?: SubscribeOptions,
) {
  let after = start.after;
  return stream<AccountEvent>(
    {
      path: '/events',
      appPing: false,
      query: () => ({ after }),
      accept: (m) => {
        if (typeof m.id !== 'string' || typeof m.type !== 'string') return undefined;
        after = m.id;
        return m as unknown as AccountEvent;
      },
    },
    options,
    subscribeOptions,
  );
}

export interface MarketSubscription {
  /** Symbols (any accepted spelling); default every symbol. */
  symbols?: string[];
  /** Only symbols quoted in this currency (USDT, BTC, ETH, EUR, BNB). */
  quote?: string;
}

/** `/market`: yields each snapshot (sent on connect and after each change); the subscription is on the URL. */
export function subscribeMarket(
  subscription: MarketSubscription,
  options: PushOptions,
  subscribeOptions?: SubscribeOptions,
) {
  return stream<MarketSnapshot>(
    {
      path: '/market',
      // The server reads nothing on /market: liveness shows as snapshots (and protocol pings in Node).
      appPing: false,
      query: () => ({ symbols: subscription.symbols?.join(','), quote: subscription.quote }),
      accept: (m) =>
        m.type === 'snapshot' && Array.isArray(m.data) ? (m as unknown as MarketSnapshot) : undefined,
    },
    options,
    subscribeOptions,
  );
}
