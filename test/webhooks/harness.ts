import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import type { Container, ContainerOptions } from '../../src/app/container.ts';
import {
  type AccountEvent,
  type EventType,
  type EventsTables,
  insertAccountEvents,
} from '../../src/modules/events/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { type TestApp, createTestApp } from '../harness/app.ts';
import type { DbKind } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

export const TEST_SECRETS_KEY = 'test-operator-secret-0123456789abcdefghijkl';

/** The environment webhook tests run with: loopback receivers allowed, plain http allowed, fast retries. */
export const webhookEnv = {
  MERIDIAN_SECRETS_KEY: TEST_SECRETS_KEY,
  MERIDIAN_WEBHOOK_ALLOW: '127.0.0.1/32',
  MERIDIAN_WEBHOOK_ALLOW_HTTP: 'true',
  MERIDIAN_WEBHOOK_RETRY_SCHEDULE: '50ms,100ms,150ms,200ms',
  MERIDIAN_WEBHOOK_TIMEOUT_MS: '2000',
};

export async function createWebhookApp(
  kind: DbKind,
  options: { env?: Record<string, string>; container?: ContainerOptions } = {},
): Promise<TestApp> {
  return createTestApp({
    db: kind,
    env: { ...webhookEnv, ...options.env },
    container: {
      ...options.container,
      webhooks: { sender: { pollMs: 100, settleMs: 1_000, jitter: 0 }, ...options.container?.webhooks },
    },
  });
}

export interface Received {
  headers: IncomingHttpHeaders;
  body: string;
  path: string;
  at: number;
}

/** A local webhook receiver recording every request; `respond` decides each answer (default 204). */
export interface Receiver {
  url: string;
  port: number;
  received: Received[];
  respond: (
    request: Received,
  ) =>
    | { status: number; headers?: Record<string, string> }
    | Promise<{ status: number; headers?: Record<string, string> }>;
  /** Most requests it was handling at once. */
  maxConcurrent: number;
  close(): Promise<void>;
}

/** `port`: listen on that port (a receiver coming back where a stopped one was); default any free port. */
export async function startReceiver(port = 0): Promise<Receiver> {
  let active = 0;
  const state: Receiver = {
    url: '',
    port: 0,
    received: [],
    respond: () => ({ status: 204 }),
    maxConcurrent: 0,
    close: () => new Promise<void>((done) => server.close(() => done())),
  };
  const server: Server = createServer((req, res) => {
    active++;
    state.maxConcurrent = Math.max(state.maxConcurrent, active);
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString('utf8');
    });
    req.on('end', async () => {
      const entry: Received = { headers: req.headers, body, path: req.url ?? '/', at: Date.now() };
      state.received.push(entry);
      const answer = await state.respond(entry);
      res.writeHead(answer.status, answer.headers);
      res.end();
      active--;
    });
  });
  server.keepAliveTimeout = 1_000;
  await new Promise<void>((done) => server.listen(port, '127.0.0.1', () => done()));
  state.port = (server.address() as AddressInfo).port;
  state.url = `http://127.0.0.1:${state.port}/hook`;
  const close = state.close;
  state.close = async () => {
    server.closeAllConnections();
    await close();
  };
  return state;
}

/** Appends events the way the alerts module does (insert, then announce on the bus). */
export async function fireEvents(
  container: Container,
  accountId: string,
  events: Array<{ ruleId?: string; type?: EventType; data?: Record<string, unknown>; test?: boolean }>,
): Promise<AccountEvent[]> {
  const stored = await insertAccountEvents(
    tablesOf<EventsTables>(container.db.db),
    events.map((e, i) => ({
      accountId,
      type: e.type ?? 'alert.triggered',
      test: e.test,
      data: {
        rule: { id: e.ruleId ?? 'alr_test', name: 'test rule', type: 'price' },
        trigger: { id: `trg_${Date.now()}_${i}`, firedAt: new Date().toISOString() },
        ...e.data,
      },
    })),
    container.clock.now(),
  );
  for (const event of stored) await container.bus.publish(topics.accountEvent, event);
  return stored;
}

/** Polls `check` until it returns true (or fails after `timeoutMs`, naming `what`). */
export async function waitFor(what: string, check: () => boolean | Promise<boolean>, timeoutMs = 10_000) {
  await waitUntil(check, what, timeoutMs);
}

export async function createWebhook(
  t: TestApp,
  auth: { authorization: string },
  url: string,
  events: EventType[] = ['alert.triggered', 'onchain.flow'],
) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/webhooks',
    headers: auth,
    payload: { url, events },
  });
  if (res.statusCode !== 201) throw new Error(`webhook not created: ${res.statusCode} ${res.body}`);
  return res.json() as { id: string; secret: string; url: string };
}

/** A real alert rule of the account (deliveries are listed per rule, and only for rules the account owns). */
export async function createRule(t: TestApp, auth: { authorization: string }, name: string): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/alerts',
    headers: auth,
    payload: { type: 'price', symbol: 'BTCUSDT', condition: { op: 'above', value: 1e9 }, name },
  });
  if (res.statusCode !== 201) throw new Error(`rule not created: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}
