import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tablesOf } from '../../src/adapters/db/connect.ts';
import { createKyselyEventsRepository, type EventsTables } from '../../src/modules/events/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { manualClock } from '../../src/shared/clock.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { dbKinds } from '../harness/db.ts';

// biome-ignore lint/suspicious/noExplicitAny: response bodies are checked field by field
type Json = any;

const HOUR = 3_600_000;

describe.each(dbKinds())('a rule at its hourly message cap, on %s', (kind) => {
  let t: TestApp;
  let member: TestUser;
  const clock = manualClock(Date.now());

  beforeAll(async () => {
    t = await createTestApp({ db: kind, container: { clock } });
    member = await t.user('member');
  });
  afterAll(async () => t?.close());

  it('reads as capped until the cap ends, with ONE alert.capped event per cap episode on the event log and bus', async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/alerts',
      headers: member.auth,
      payload: {
        type: 'price',
        symbol: 'BTCUSDT',
        condition: { op: 'above', value: 1 },
        trigger: { mode: 'every' },
      },
    });
    const rule = created.json() as Json;
    const announced: Json[] = [];
    const stop = await t.container.bus.subscribe(topics.accountEvent, (e) => announced.push(e));
    const alerts = t.container.alerts.service;
    const start = clock.now();
    // The sender reports each capped message of the hour: the first begins the episode, the others extend it.
    await alerts.markRuleCapped(member.id, rule.id, start + HOUR);
    clock.advance(60_000);
    await alerts.markRuleCapped(member.id, rule.id, start + 60_000 + HOUR);
    clock.advance(60_000);
    await alerts.markRuleCapped(member.id, rule.id, start + 120_000 + HOUR);

    const shown = (
      await t.app.inject({ method: 'GET', url: `/api/alerts/${rule.id}`, headers: member.auth })
    ).json() as Json;
    expect(shown.state).toBe('capped');
    expect(shown.cappedUntil).toBe(new Date(start + 120_000 + HOUR).toISOString());

    const events = createKyselyEventsRepository(tablesOf<EventsTables>(t.container.db.db));
    const capped = () =>
      events.listForAccount(member.id, 0, 100).then((list) => list.filter((e) => e.type === 'alert.capped'));
    const first = await capped();
    expect(first).toHaveLength(1);
    const body = JSON.parse(first[0]!.body);
    expect(body).toMatchObject({ type: 'alert.capped', version: 1, test: false });
    expect(body.data.rule).toMatchObject({ id: rule.id, type: 'price', symbol: 'BTCUSDT' });
    expect(body.data.cappedUntil).toBe(new Date(start + HOUR).toISOString());

    // The cap ends: the rule is active again. A later capped message begins a second episode: one more event.
    clock.set(start + 120_000 + HOUR + 1);
    const after = (
      await t.app.inject({ method: 'GET', url: `/api/alerts/${rule.id}`, headers: member.auth })
    ).json() as Json;
    expect(after).toMatchObject({ state: 'active', cappedUntil: null });
    await alerts.markRuleCapped(member.id, rule.id, clock.now() + HOUR);
    await alerts.markRuleCapped(member.id, rule.id, clock.now() + HOUR);
    await stop();
    expect(await capped()).toHaveLength(2);
    expect(announced.filter((e) => e.type === 'alert.capped')).toHaveLength(2);
  });
});
