import { randomUUID } from 'node:crypto';
import type { WebSocket } from 'ws';
import type { Principal } from '../../../modules/accounts/index.ts';
import type { ParameterChange } from '../../../modules/symbols/index.ts';
import { isAppError } from '../../../shared/errors.ts';
import { startHeartbeat } from '../heartbeat.ts';
import type { ConnectionSlots } from '../../../shared/connection-slots.ts';
import { type SharedFrame, sharedTextFrame, writeSharedFrame } from './frame.ts';
import { type ControlType, type PushError, type PushErrorCode, closeCodes, limits } from './protocol.ts';
import { type Selection, type Subscription, normalizeSelection } from './subscription.ts';
import { logAndIgnore } from '../../../shared/log-and-ignore.ts';

/** The narrow view of a datapoint the hub needs; everything else is passed through untouched. */
export interface PushDatapoint {
  symbol: string;
  horizon: string;
}

export interface HubOptions {
  /** Protocol ping period; a socket that has not answered the previous ping is terminated. */
  pingIntervalMs: number;
  /** Bytes a socket may have queued (ws + kernel hand-off) before it is closed as a slow consumer. */
  maxBufferedBytes: number;
  /** How often expiry deadlines are checked (in memory, no I/O). */
  expirySweepMs: number;
  /** How often each distinct credential is re-checked against the store (backstop for a lost bus event). */
  verifyEveryMs: number;
  /** At most this many credentials re-checked per sweep, oldest check first. */
  verifyBatch: number;
  /** After a close frame, how long a peer gets to answer before the socket is destroyed. */
  closeGraceMs: number;
  /**
   * Sockets written per event-loop turn during a fan-out; the rest continue on the next turn
   * (`setImmediate`), so a large refresh never holds the loop (handshakes, pings, control messages) for its
   * whole duration. 0 = the whole fan-out in one turn.
   */
  fanoutSliceSize: number;
  /**
   * Write each group's pre-built WebSocket frame straight to the sockets (see frame.ts) rather than calling
   * `ws.send` per socket. Same bytes on the wire either way.
   */
  preFramed: boolean;
}

export const defaultHubOptions: HubOptions = {
  pingIntervalMs: 30_000,
  maxBufferedBytes: 1_048_576,
  expirySweepMs: 1_000,
  // With the 1 s sweep: a revoked credential's sockets close ≤ 3 s + 1 s + one store round trip after the
  // revocation even when the bus lost the announcement (Redis down) — within the 5 s promise.
  verifyEveryMs: 3_000,
  verifyBatch: 500,
  closeGraceMs: 5_000,
  fanoutSliceSize: 2_000,
  preFramed: true,
};

export interface HubDeps {
  slots: ConnectionSlots;
  /** Re-checks of stored credentials. */
  isTokenStillValid(tokenId: string): Promise<boolean>;
  isSessionStillValid(sessionSecret: string): Promise<boolean>;
  onConnectionCountChange?(count: number): void;
  log?: { info(obj: object, msg: string): void; warn(obj: object, msg: string): void };
  now?: () => number;
}

/** One credential (an API token or a console session) and the sockets opened with it. */
interface Credential {
  key: string;
  tokenId?: string;
  sessionSecret?: string;
  expiresAt: number | null;
  verifiedAt: number;
  sockets: Set<Connection>;
}

interface Connection {
  id: string;
  ws: WebSocket;
  accountId: string;
  credential: Credential;
  sub: Subscription;
  alive: boolean;
  /** Start of the current control-message window and the counts in it. */
  windowStart: number;
  messages: number;
  ignored: number;
  closing: boolean;
}

export interface Admission {
  principal: Principal;
  /** `token:<sha256>` (matches the revocation event's hash) or `session:<sha256>`. */
  credentialKey: string;
  sessionSecret?: string;
  subscription: Subscription;
  connectionId: string;
}

/**
 * The per-replica fan-out: every open socket, grouped by subscription. On each refresh it serializes one
 * frame per distinct subscription and hands the same bytes to every socket of that group. All buffers are
 * bounded: a socket whose queued bytes would pass `maxBufferedBytes` is closed with 4408 instead of
 * growing (the others never wait on it: sends only queue); inbound messages are capped at 4 KB by `ws`
 * and at `limits.controlMessagesPerWindow` per window here.
 */
export function createPushHub(deps: HubDeps, initialOptions: HubOptions = defaultHubOptions) {
  let options = initialOptions;
  const now = deps.now ?? Date.now;
  const releaseFailed = deps.log ? logAndIgnore(deps.log, 'push slot not given back') : () => {};
  const connections = new Set<Connection>();
  const groups = new Map<string, { sub: Subscription; sockets: Set<Connection> }>();
  const credentials = new Map<string, Credential>();
  let stopped = false;
  /** `preFramed`: sends written as one pre-built frame; `sent - preFramed` went through `ws.send`. */
  const stats = { frames: 0, sent: 0, preFramed: 0, slowConsumers: 0, terminated: 0, revoked: 0 };

  const join = (conn: Connection) => {
    const key = conn.sub.key;
    let group = groups.get(key);
    if (!group) {
      group = { sub: conn.sub, sockets: new Set() };
      groups.set(key, group);
    }
    group.sockets.add(conn);
  };
  const leave = (conn: Connection, key = conn.sub.key) => {
    const group = groups.get(key);
    if (!group) return;
    group.sockets.delete(conn);
    if (!group.sockets.size) groups.delete(key);
  };

  /** Stops sending to a socket and closes it; after `closeGraceMs` without a close answer, destroys it. */
  function shut(conn: Connection, code: number, reason: string) {
    if (conn.closing) return;
    conn.closing = true;
    leave(conn);
    conn.ws.close(code, reason);
    setTimeout(() => conn.ws.terminate(), options.closeGraceMs).unref();
  }

  function forget(conn: Connection) {
    if (!connections.delete(conn)) return;
    leave(conn);
    conn.credential.sockets.delete(conn);
    if (!conn.credential.sockets.size) credentials.delete(conn.credential.key);
    deps.onConnectionCountChange?.(connections.size);
    deps.slots.release(conn.accountId, conn.id).catch(releaseFailed);
  }

  function reply(conn: Connection, message: object) {
    if (conn.closing || conn.ws.readyState !== conn.ws.OPEN) return;
    conn.ws.send(JSON.stringify(message));
  }

  function error(conn: Connection, code: PushErrorCode, message: string, id?: string | number) {
    const body: PushError = { type: 'error', code, message };
    if (id !== undefined) body.id = id;
    reply(conn, body);
  }

  function onMessage(conn: Connection, data: Buffer, isBinary: boolean) {
    conn.alive = true;
    const t = now();
    if (t - conn.windowStart >= limits.controlWindowMs) {
      conn.windowStart = t;
      conn.messages = 0;
      conn.ignored = 0;
    }
    if (++conn.messages > limits.controlMessagesPerWindow) {
      if (++conn.ignored > limits.ignoredMessagesPerWindow) {
        shut(conn, closeCodes.tooManyMessages, 'too many messages');
        return;
      }
      error(
        conn,
        'rate_limited',
        `at most ${limits.controlMessagesPerWindow} messages per ${limits.controlWindowMs / 1000} s; this one was ignored`,
      );
      return;
    }
    if (isBinary) {
      error(conn, 'binary_not_supported', 'control messages are JSON text frames');
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(data.toString('utf8'));
    } catch {
      error(conn, 'malformed_message', 'the message is not valid JSON');
      return;
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
      error(conn, 'malformed_message', 'a control message is a JSON object with a "type"');
      return;
    }
    const message = parsed as Record<string, unknown>;
    const id =
      typeof message.id === 'string' || typeof message.id === 'number'
        ? (message.id as string | number)
        : undefined;
    const type = message.type;
    if (type === 'ping') {
      reply(conn, id === undefined ? { type: 'pong' } : { type: 'pong', id });
      return;
    }
    if (type !== 'subscribe' && type !== 'unsubscribe') {
      error(
        conn,
        'unknown_message_type',
        `unknown message type ${JSON.stringify(type ?? null)}; expected subscribe, unsubscribe or ping`,
        id,
      );
      return;
    }
    const symbols = stringList(message.symbols);
    const horizons = stringList(message.horizons);
    if (symbols === null || horizons === null) {
      error(
        conn,
        'malformed_message',
        '"symbols" and "horizons" are optional non-empty arrays of strings (omit one to mean all)',
        id,
      );
      return;
    }
    const changes: ParameterChange[] = [];
    let selection: Selection;
    try {
      selection = normalizeSelection(symbols, horizons, changes, message.strict === true);
    } catch (e) {
      if (!isAppError(e)) throw e;
      const code: PushErrorCode =
        e.code === 'unsupported_symbol'
          ? 'unsupported_symbol'
          : e.errors?.some((p) => p.pointer === '/query/horizons')
            ? 'invalid_horizon'
            : 'malformed_message';
      error(conn, code, e.message, id);
      return;
    }
    const before = conn.sub.key;
    if (type === 'subscribe') conn.sub.subscribe(selection);
    else conn.sub.unsubscribe(selection);
    if (conn.sub.key !== before) {
      leave(conn, before);
      join(conn);
    }
    acknowledge(conn, type, id, changes);
  }

  function acknowledge(
    conn: Connection,
    type: ControlType,
    id: string | number | undefined,
    changes: ParameterChange[],
  ) {
    const ack: Record<string, unknown> = { type: type === 'subscribe' ? 'subscribed' : 'unsubscribed' };
    if (id !== undefined) ack.id = id;
    ack.subscription = conn.sub.describe();
    if (changes.length) ack.normalized = changes;
    reply(conn, ack);
  }

  /** A refresh being handed out: each target socket with the shared frame of its group. */
  interface FanoutJob {
    conns: Connection[];
    frames: SharedFrame[];
    next: number;
    startedAt: number;
  }
  const jobs: FanoutJob[] = [];
  let draining = false;
  let rotation = 0;
  let fanoutObserver: ((ms: number, sockets: number) => void) | undefined;

  /**
   * Fans one refresh out: one serialization (and one complete WebSocket frame) per distinct subscription,
   * the same bytes to each socket of the group. Sockets are written in slices of `fanoutSliceSize` per
   * event-loop turn, in an order rotated on every refresh so no socket is always served last. Refreshes
   * are handed out in order (a refresh published while the previous one is still going waits behind it).
   */
  function publish(datapoints: readonly PushDatapoint[]) {
    if (stopped || !datapoints.length) return;
    const startedAt = performance.now();
    const conns: Connection[] = [];
    const frames: SharedFrame[] = [];
    for (const group of groups.values()) {
      let payload: Buffer;
      if (group.sub.all) {
        payload = Buffer.from(JSON.stringify({ data: datapoints }));
      } else {
        const matches = group.sub.matcher();
        const picked = datapoints.filter((d) => matches(d.symbol, d.horizon));
        // Nothing of this refresh is in the subscription: no message (the client asked for other markets).
        if (!picked.length) continue;
        payload = Buffer.from(JSON.stringify({ data: picked }));
      }
      stats.frames++;
      const shared = sharedTextFrame(payload);
      for (const conn of group.sockets) {
        conns.push(conn);
        frames.push(shared);
      }
    }
    if (!conns.length) return;
    // Rotate the starting point so the sockets served last (waiting longest) differ from refresh to refresh.
    const start = rotation++ % conns.length;
    const job: FanoutJob = { conns, frames, next: 0, startedAt };
    if (start) {
      job.conns = conns.slice(start).concat(conns.slice(0, start));
      job.frames = frames.slice(start).concat(frames.slice(0, start));
    }
    jobs.push(job);
    if (!draining) drain();
  }

  function drain() {
    draining = true;
    const slice = options.fanoutSliceSize > 0 ? options.fanoutSliceSize : Number.POSITIVE_INFINITY;
    let budget = slice;
    while (jobs.length && budget > 0) {
      const job = jobs[0]!;
      const end = Math.min(job.conns.length, job.next + budget);
      for (let i = job.next; i < end; i++) send(job.conns[i]!, job.frames[i]!);
      budget -= end - job.next;
      job.next = end;
      if (job.next === job.conns.length) {
        jobs.shift();
        fanoutObserver?.(performance.now() - job.startedAt, job.conns.length);
      }
    }
    if (jobs.length && !stopped) setImmediate(drain);
    else {
      draining = false;
      if (stopped) jobs.length = 0;
    }
  }

  function send(conn: Connection, shared: SharedFrame) {
    const ws = conn.ws;
    if (conn.closing || ws.readyState !== ws.OPEN) return;
    // A frame always fits an empty queue (so one frame larger than the limit is still delivered); otherwise
    // the queue may never pass the limit. Bound per socket: max(limit, one frame).
    const queued = ws.bufferedAmount;
    if (queued > 0 && queued + shared.payload.length > options.maxBufferedBytes) {
      stats.slowConsumers++;
      deps.log?.info(
        { connection: conn.id, buffered: ws.bufferedAmount },
        'push: slow consumer disconnected',
      );
      shut(conn, closeCodes.slowConsumer, 'slow consumer: send buffer full');
      return;
    }
    if (!options.preFramed) ws.send(shared.payload, { binary: false });
    else if (writeSharedFrame(ws, shared)) stats.preFramed++;
    stats.sent++;
  }

  /** Closes every socket opened with a token (by its SHA-256 hash, as announced on the bus). */
  function revokeTokenHash(hash: string) {
    const credential = credentials.get(`token:${hash}`);
    if (!credential) return;
    for (const conn of [...credential.sockets]) {
      stats.revoked++;
      shut(conn, closeCodes.credentialsEnded, 'token revoked');
    }
  }

  const pingTimer = startHeartbeat(connections, deps.slots, options.pingIntervalMs, deps.log, () => {
    stats.terminated++;
  });

  let verifying = false;
  const sweepTimer = setInterval(() => {
    const t = now();
    for (const credential of credentials.values()) {
      if (credential.expiresAt !== null && credential.expiresAt <= t) {
        for (const conn of [...credential.sockets]) shut(conn, closeCodes.credentialsEnded, 'token expired');
      }
    }
    if (verifying) return;
    const due = [...credentials.values()]
      .filter((c) => t - c.verifiedAt >= options.verifyEveryMs)
      .sort((a, b) => a.verifiedAt - b.verifiedAt)
      .slice(0, options.verifyBatch);
    if (!due.length) return;
    verifying = true;
    void verify(due, t).finally(() => {
      verifying = false;
    });
  }, options.expirySweepMs);
  sweepTimer.unref();

  async function verify(due: Credential[], t: number) {
    for (const credential of due) {
      let valid = true;
      try {
        valid = credential.tokenId
          ? await deps.isTokenStillValid(credential.tokenId)
          : credential.sessionSecret
            ? await deps.isSessionStillValid(credential.sessionSecret)
            : true;
      } catch {
        // The store is unreachable: keep the sockets; the next sweep asks again.
        continue;
      }
      credential.verifiedAt = t;
      if (!valid) {
        for (const conn of [...credential.sockets]) {
          stats.revoked++;
          shut(conn, closeCodes.credentialsEnded, 'credentials no longer valid');
        }
      }
    }
  }

  return {
    stats,
    get connectionCount() {
      return connections.size;
    },
    get groupCount() {
      return groups.size;
    },
    newConnectionId: () => randomUUID(),
    publish,
    revokeTokenHash,
    /** Called when a refresh has been handed to every socket: wall ms since publish, sockets (benchmark). */
    observeFanout(fn: ((ms: number, sockets: number) => void) | undefined) {
      fanoutObserver = fn;
    },
    /** Changes how fan-outs are written, at run time (the benchmark compares the variants). */
    tuneFanout(tuning: Partial<Pick<HubOptions, 'fanoutSliceSize' | 'preFramed'>>) {
      options = { ...options, ...tuning };
    },

    /** Takes a connection slot for the account; false when the plan's cap is reached. */
    async reserve(principal: Principal, connectionId: string) {
      return deps.slots.acquire(principal.userId, connectionId, principal.wsConnections);
    },
    /** Gives a reserved slot back when the upgrade never completed. */
    async unreserve(principal: Principal, connectionId: string) {
      await deps.slots.release(principal.userId, connectionId);
    },

    /** Adopts an upgraded socket. Its slot was reserved before the upgrade. */
    adopt(ws: WebSocket, admission: Admission) {
      const { principal } = admission;
      if (stopped) {
        deps.slots.release(principal.userId, admission.connectionId).catch(releaseFailed);
        ws.close(closeCodes.goingAway, 'server shutting down');
        return;
      }
      let credential = credentials.get(admission.credentialKey);
      if (!credential) {
        credential = {
          key: admission.credentialKey,
          tokenId: principal.tokenId,
          sessionSecret: admission.sessionSecret,
          expiresAt: principal.tokenExpiresAt ?? null,
          verifiedAt: now(),
          sockets: new Set(),
        };
        credentials.set(credential.key, credential);
      }
      const conn: Connection = {
        id: admission.connectionId,
        ws,
        accountId: principal.userId,
        credential,
        sub: admission.subscription,
        alive: true,
        windowStart: now(),
        messages: 0,
        ignored: 0,
        closing: false,
      };
      credential.sockets.add(conn);
      connections.add(conn);
      join(conn);
      deps.onConnectionCountChange?.(connections.size);
      ws.on('pong', () => {
        conn.alive = true;
      });
      ws.on('message', (data, isBinary) => onMessage(conn, data as Buffer, isBinary));
      ws.on('close', () => forget(conn));
      ws.on('error', () => {
        // `ws` closes the socket after an error (e.g. 1009 for an oversize message); 'close' follows.
      });
    },

    /** Graceful shutdown: every socket gets 1001 and the grace period to answer. */
    async close() {
      stopped = true;
      clearInterval(pingTimer);
      clearInterval(sweepTimer);
      const closing = [...connections].map(
        (conn) =>
          new Promise<void>((resolve) => {
            if (conn.ws.readyState === conn.ws.CLOSED) return resolve();
            conn.ws.once('close', () => resolve());
            shut(conn, closeCodes.goingAway, 'server shutting down');
            // `shut` is a no-op for a socket already closing; it will close within its grace anyway.
          }),
      );
      await Promise.all(closing);
    },
  };
}

export type PushHub = ReturnType<typeof createPushHub>;

/** `undefined` when absent; `null` when present but not a non-empty list of strings. */
function stringList(value: unknown): string[] | undefined | null {
  if (value === undefined) return undefined;
  if (!Array.isArray(value) || value.length === 0 || !value.every((v) => typeof v === 'string')) return null;
  return value as string[];
}
