import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { redisBus } from '../../src/adapters/bus/redis.ts';
import { type DbHandle, tablesOf } from '../../src/adapters/db/connect.ts';
import { connectRedis, waitForRedis } from '../../src/adapters/redis.ts';
import {
  type AlertsTables,
  createAlertsService,
  createKyselyAlertsRepository,
} from '../../src/modules/alerts/index.ts';
import type { EventsTables } from '../../src/modules/events/index.ts';
import { normalizeExchange } from '../../src/modules/symbols/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { systemClock } from '../../src/shared/clock.ts';
import { type Topics, topicDecoders } from '../../src/app/bus-topics.ts';
import { snapshotMessage } from '../harness/bus.ts';
import { openTestPostgres, postgresAvailable, redisUrl } from '../harness/db.ts';
import { waitUntil } from '../harness/wait.ts';

const RULES = 10;
const CROSSINGS = 100; // per rule: 10 × 100 = 1,000 firings
const worker = join(process.cwd(), 'test/alerts/fixtures/evaluator-worker.ts');

interface Worker {
  child: ChildProcess;
  lines: string[];
}

function startWorker(env: Record<string, string>): Worker {
  const child = spawn(process.execPath, ['--import', 'tsx', worker], { env: { ...process.env, ...env } });
  const w: Worker = { child, lines: [] };
  let buffer = '';
  child.stdout!.on('data', (chunk) => {
    buffer += chunk;
    const parts = buffer.split('\n');
    buffer = parts.pop()!;
    w.lines.push(...parts);
  });
  child.stderr!.on('data', (chunk) => process.stderr.write(`[worker ${child.pid}] ${chunk}`));
  return w;
}

const waitFor = (condition: () => boolean, what: string, timeoutMs = 60_000) =>
  waitUntil(condition, what, timeoutMs);

describe.runIf(postgresAvailable() && redisUrl())('two evaluator processes on PostgreSQL and Redis', () => {
  const workers: Worker[] = [];
  let handle: (DbHandle & { url: string }) | undefined;
  afterAll(async () => {
    for (const w of workers) {
      if (w.child.exitCode === null) {
        const exited = new Promise((r) => w.child.once('exit', r));
        w.child.kill('SIGTERM');
        await exited;
      }
    }
    await handle?.close();
  });

  it('1,000 crossings evaluated by both → exactly 1,000 triggers and events, none duplicated, none lost', async () => {
    handle = await openTestPostgres();
    const prefix = `meridian:test-${randomBytes(6).toString('hex')}:`;
    const publisher = connectRedis(redisUrl()!, 'test-driver');
    const subscriber = connectRedis(redisUrl()!, 'test-driver-sub');
    await Promise.all([waitForRedis(publisher, 3_000), waitForRedis(subscriber, 3_000)]);
    const bus = redisBus<Topics>(publisher, subscriber, { decoders: topicDecoders, channelPrefix: prefix });
    try {
      const repo = createKyselyAlertsRepository(tablesOf<AlertsTables & EventsTables>(handle.db));
      const service = createAlertsService({
        repo,
        bus,
        clock: systemClock,
        resolveExchange: (name) => normalizeExchange(name).exchange,
        caps: { standard: 1000 },
      });
      const rules: string[] = [];
      for (let i = 0; i < RULES; i++) {
        const view = await service.create(
          { accountId: `usr_two_workers_${i % 3}`, plan: 'standard' },
          {
            type: 'price',
            symbol: 'BTCUSDT',
            condition: { op: 'crosses_above', value: 100_000 + i * 10 },
            trigger: { mode: 'every', cooldownSec: 1 },
          },
        );
        rules.push(view.id);
      }
      const env = { DATABASE_URL: handle.url, REDIS_URL: redisUrl()!, BUS_PREFIX: prefix };
      workers.push(startWorker(env), startWorker(env));
      await waitFor(() => workers.every((w) => w.lines.includes('ready')), 'both workers ready');

      // The price oscillates across every threshold: below at even seconds, above at odd ones.
      const t0 = Date.UTC(2026, 6, 1);
      const ups: number[] = [];
      const tick = (mid: number, at: number) =>
        bus.publish(topics.marketSnapshot, snapshotMessage({ BTCUSDT: mid }, at));
      for (let k = 0; k < CROSSINGS; k++) {
        await tick(99_000, t0 + 2 * k * 1000);
        const at = t0 + (2 * k + 1) * 1000;
        ups.push(at);
        await tick(101_000, at);
      }
      const last = `processed ${ups.at(-1)} `;
      await waitFor(
        () => workers.every((w) => w.lines.some((l) => l.startsWith(last))),
        'the last tick',
        120_000,
      );

      const triggers = await handle.db
        .selectFrom('alert_triggers')
        .select(['rule_id', 'event_key', 'event_id'])
        .where('rule_id', 'in', rules)
        .execute();
      const expected = new Set(rules.flatMap((id) => ups.map((at) => `${id} BTCUSDT@${at}`)));
      const got = triggers.map((t) => `${t.rule_id} ${t.event_key}`);
      expect(got.length).toBe(RULES * CROSSINGS);
      expect(new Set(got).size).toBe(got.length); // none duplicated
      expect(got.filter((k) => !expected.has(k))).toEqual([]); // none unexpected
      expect([...expected].filter((k) => !got.includes(k))).toEqual([]); // none lost

      const events = await sql<{ n: number; ids: number; triggers: number }>`
        select count(*)::int as n, count(distinct id)::int as ids,
               count(distinct (body::jsonb -> 'data' -> 'trigger' ->> 'key') || (body::jsonb -> 'data' -> 'rule' ->> 'id'))::int as triggers
        from account_events where account_id like 'usr_two_workers_%'`.execute(handle.db);
      expect(events.rows[0]).toEqual({ n: 1000, ids: 1000, triggers: 1000 });
      const eventIds = new Set(triggers.map((t) => t.event_id));
      expect(eventIds.size).toBe(1000);

      // Both processes evaluated every crossing; between them they wrote each exactly once.
      const finals = workers.map((w) => {
        const line = w.lines.filter((l) => l.startsWith(last)).at(-1)!;
        const [, , fired, recorded] = line.split(' ');
        return { fired: Number(fired), recorded: Number(recorded) };
      });
      expect(finals.map((f) => f.fired)).toEqual([1000, 1000]);
      expect(finals[0]!.recorded + finals[1]!.recorded).toBe(1000);
      const counts = await handle.db
        .selectFrom('alert_rules')
        .select(['trigger_count'])
        .where('id', 'in', rules)
        .execute();
      expect(counts.map((c) => Number(c.trigger_count))).toEqual(rules.map(() => CROSSINGS));
    } finally {
      await bus.close();
      subscriber.disconnect();
      publisher.disconnect();
    }
  }, 180_000);
});
