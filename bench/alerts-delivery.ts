import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { memoryBus } from '../src/adapters/bus/memory.ts';
import { openDatabase, tablesOf } from '../src/adapters/db/connect.ts';
import { migrateToLatest } from '../src/adapters/db/migrate.ts';
import { createLogger } from '../src/observability/logger.ts';
import type { Topics } from '../src/app/bus-topics.ts';
import { buildWebhooks } from '../src/app/webhooks.ts';
import { loadConfig } from '../src/config/env.ts';
import { type EventsTables, insertAccountEvents } from '../src/modules/events/index.ts';
import { topics } from '../src/shared/bus.ts';
import { systemClock } from '../src/shared/clock.ts';

/**
 * Event → webhook received, on loopback: an event is appended to the account log (and announced on the bus,
 * as the alerts evaluator does), the sender turns it into a delivery row, signs and POSTs it; the clock stops
 * when the receiver has the whole request. Storage: PGlite in memory, or PostgreSQL with BENCH_DATABASE_URL.
 * Baseline in the same run: the same POST sent straight to the receiver (the network and HTTP floor).
 * 1. steady — BENCH_DELIVERY_EVENTS (300) events, one every 20 ms, 30 rules: p50 / p99 latency;
 * 2. burst — 300 events at once over 30 rules: time until the last one is received.
 */
const EVENTS = Number(process.env.BENCH_DELIVERY_EVENTS ?? 300);
const RULES = 30;
const TARGET_P99_MS = 250;

const percentile = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!;
const round = (n: number) => Math.round(n * 10) / 10;

export interface AlertsDeliveryResult {
  storage: string;
  steady: { events: number; p50Ms: number; p99Ms: number; maxMs: number };
  baseline: { p50Ms: number; p99Ms: number };
  burst: { events: number; allReceivedMs: number };
  targetP99Ms: number;
  meetsTarget: boolean;
}

export async function runAlertsDelivery(): Promise<AlertsDeliveryResult> {
  const received = new Map<string, number>();
  let onReceived: (() => void) | undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      const at = performance.now();
      const id = /"id":"(evt_[0-9A-Za-z]+)"/.exec(body)?.[1];
      if (id) received.set(id, at);
      res.writeHead(204).end();
      onReceived?.();
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;

  const config = loadConfig({
    ...process.env,
    DATABASE_URL: process.env.BENCH_DATABASE_URL ?? '',
    REDIS_URL: '',
    LOG_LEVEL: 'silent',
    MERIDIAN_SECRETS_KEY: 'bench-operator-secret-0123456789abcdefghijklmnop',
    MERIDIAN_WEBHOOK_ALLOW: '127.0.0.1/32',
    MERIDIAN_WEBHOOK_ALLOW_HTTP: 'true',
  });
  const db = await openDatabase({ databaseUrl: config.databaseUrl });
  await migrateToLatest(db.db);
  const bus = memoryBus<Topics>();
  // Only delivery is measured: no alert rules exist in this database.
  const webhooks = buildWebhooks(config, {
    db,
    bus,
    clock: systemClock,
    logger: createLogger('silent'),
    rules: { exists: async () => false },
    exhausted: { onExhausted: async () => {} },
  });
  const accountId = `usr_bench_${Date.now()}`;
  await webhooks.service.create(accountId, { url, events: ['alert.triggered'] });
  await webhooks.job.start();
  const events = tablesOf<EventsTables>(db.db);

  const fire = async (n: number, offset: number) => {
    const sentAt = new Map<string, number>();
    const t0 = performance.now();
    const stored = await insertAccountEvents(
      events,
      Array.from({ length: n }, (_, i) => ({
        accountId,
        type: 'alert.triggered' as const,
        data: {
          rule: { id: `alr_bench_${(offset + i) % RULES}`, name: 'bench', type: 'price' },
          trigger: { id: `trg_${offset + i}`, firedAt: new Date().toISOString() },
          price: 100_000 + i,
        },
      })),
      Date.now(),
    );
    for (const e of stored) {
      sentAt.set(e.id, t0);
      await bus.publish(topics.accountEvent, e);
    }
    return sentAt;
  };
  const until = (check: () => boolean) =>
    new Promise<void>((done) => {
      if (check()) return done();
      onReceived = () => {
        if (check()) {
          onReceived = undefined;
          done();
        }
      };
    });

  try {
    // Warm-up: connections, JIT, the first queries.
    const warm = await fire(20, 0);
    await until(() => [...warm.keys()].every((id) => received.has(id)));

    const latencies: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const sent = await fire(1, i);
      const [id, t0] = [...sent][0]!;
      await until(() => received.has(id));
      latencies.push(received.get(id)! - t0);
      await new Promise((r) => setTimeout(r, 20));
    }
    latencies.sort((a, b) => a - b);

    const floor: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const body = JSON.stringify({ id: `evt_floor${i}`, n: i });
      const t0 = performance.now();
      const res = await request(url, {
        method: 'POST',
        body,
        headers: { 'content-type': 'application/json' },
      });
      await res.body.dump();
      floor.push(received.get(`evt_floor${i}`)! - t0);
    }
    floor.sort((a, b) => a - b);

    const burstStart = performance.now();
    const burst = await fire(EVENTS, 1_000_000);
    await until(() => [...burst.keys()].every((id) => received.has(id)));
    const burstMs = Math.max(...[...burst.keys()].map((id) => received.get(id)!)) - burstStart;

    const result: AlertsDeliveryResult = {
      storage: db.kind,
      steady: {
        events: EVENTS,
        p50Ms: round(percentile(latencies, 0.5)),
        p99Ms: round(percentile(latencies, 0.99)),
        maxMs: round(latencies[latencies.length - 1]!),
      },
      baseline: { p50Ms: round(percentile(floor, 0.5)), p99Ms: round(percentile(floor, 0.99)) },
      burst: { events: EVENTS, allReceivedMs: round(burstMs) },
      targetP99Ms: TARGET_P99_MS,
      meetsTarget: percentile(latencies, 0.99) <= TARGET_P99_MS,
    };
    return result;
  } finally {
    await webhooks.job.stop();
    await webhooks.transport.close();
    await db.close();
    server.closeAllConnections();
    server.close();
  }
}

export async function run() {
  const r = await runAlertsDelivery();
  console.log(`event → webhook received on loopback (${r.storage}, sender woken by the bus)`);
  console.table([
    {
      case: `steady, ${r.steady.events} events at 50/s`,
      p50Ms: r.steady.p50Ms,
      p99Ms: r.steady.p99Ms,
      maxMs: r.steady.maxMs,
    },
    {
      case: 'baseline: the same POST sent directly',
      p50Ms: r.baseline.p50Ms,
      p99Ms: r.baseline.p99Ms,
      maxMs: '',
    },
  ]);
  console.log(
    `p99 ${r.steady.p99Ms} ms vs target ${r.targetP99Ms} ms: ${r.meetsTarget ? 'met' : 'MISSED'}; ` +
      `p50 ${round(r.steady.p50Ms / r.baseline.p50Ms)}× the direct POST; ` +
      `burst of ${r.burst.events} events (${RULES} rules, in order per rule): all received in ${r.burst.allReceivedMs} ms`,
  );
  return r;
}
