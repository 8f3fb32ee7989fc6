import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PushDatapoint } from '../../src/http/push/predictions/datapoints.ts';
import { pushHubOf } from '../../src/http/push/predictions/route.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { type Client, connect, refresh } from './client.ts';

/**
 * The fan-out (src/http/push/predictions/fanout.ts, frame.ts): one message serialized per subscription group,
 * sent to each socket of the group. Real `ws` clients must decode every frame — all three payload
 * length encodings, several groups in one refresh, sliced across event-loop turns, interleaved with control
 * replies — and the bounded buffer must still cut a slow consumer off.
 */
describe('push channel fan-out', () => {
  let t: TestApp;
  let user: TestUser;
  let url: string;
  const open: Client[] = [];
  const client = async (query = '') => {
    const c = await connect(`${url}${query}`, { headers: user.auth });
    open.push(c);
    return c;
  };
  const hub = () => pushHubOf(t.app.server)!;
  // Straight to the hub (what the bus handler does): the tiny payload below is smaller than any real datapoint.
  const publish = async (payload: { data: readonly PushDatapoint[] }) => hub().publish(payload.data);

  beforeAll(async () => {
    t = await createTestApp({
      env: { MERIDIAN_WS_CONNECTIONS_STANDARD: '50', MERIDIAN_WS_SEND_BUFFER_BYTES: '65536' },
    });
    user = await t.user('member');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/predictions`;
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await t.close();
  });

  it('delivers each subscription group its own frame, decoded by real clients, in 1-socket slices', async () => {
    hub().tuneFanout({ fanoutSliceSize: 1 });
    try {
      const all = await Promise.all([client(), client(), client()]);
      const btc = await Promise.all([client('?symbol=BTCUSDT'), client('?symbol=BTCUSDT')]);
      const hour = await client('?horizon=1h');
      // Narrowed by a control message (acknowledged before the refresh): everything but BTCUSDT.
      const eth = await client();
      eth.send({ type: 'unsubscribe', id: 8, symbols: ['BTCUSDT'] });
      await eth.next((m) => m.type === 'unsubscribed' && m.id === 8);

      const before = { ...hub().stats };
      const published = refresh(['BTCUSDT', 'ETHUSDT'], ['15m', '1h', '6h']);
      const marks = [...all, ...btc, hour, eth].map((c) => c.messages.length);
      await publish(published);
      const got = await Promise.all(
        [...all, ...btc, hour, eth].map((c, i) => c.next((m) => Array.isArray(m.data), 3_000, marks[i])),
      );
      for (const m of got.slice(0, 3)) expect(m).toEqual(published);
      for (const m of got.slice(3, 5))
        expect(m.data).toEqual(published.data.filter((d) => d.symbol === 'BTCUSDT'));
      expect(got[5].data).toEqual(published.data.filter((d) => d.horizon === '1h'));
      expect(got[6].data).toEqual(published.data.filter((d) => d.symbol === 'ETHUSDT'));
      // Every socket got its group's message, serialized once per distinct group.
      expect(hub().stats.sent - before.sent).toBe(7);
      expect(hub().stats.frames - before.frames).toBe(4);
    } finally {
      hub().tuneFanout({ fanoutSliceSize: 2_000 });
      for (const c of open.splice(0)) c.ws.close();
    }
  });

  it('encodes 7-bit, 16-bit and 64-bit payload lengths, in order, interleaved with control replies', async () => {
    const c = await client();
    const tiny = { data: [{ symbol: 'BTCUSDT', horizon: '1h' }] }; // < 126 bytes
    const medium = refresh(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']); // 126..65,535 bytes
    const big = refresh(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT']);
    big.data = Array.from({ length: 60 }, () => big.data).flat(); // > 65,535 bytes
    expect(JSON.stringify(tiny).length).toBeLessThan(126);
    expect(JSON.stringify(big).length).toBeGreaterThan(65_535);
    const from = c.messages.length;
    for (let round = 0; round < 5; round++) {
      c.send({ type: 'ping', id: round });
      await publish(tiny);
      await publish(medium);
      await publish(big);
    }
    await c.next((m) => m.type === 'pong' && m.id === 4);
    const data = await c.next(
      () => c.messages.slice(from).filter((m: any) => Array.isArray(m.data)).length === 15,
    );
    expect(data).toBeDefined();
    const received = c.messages.slice(from).filter((m: any) => Array.isArray(m.data));
    expect(received).toEqual(Array.from({ length: 5 }, () => [tiny, medium, big]).flat());
    expect(c.messages.slice(from).filter((m: any) => m.type === 'pong')).toHaveLength(5);
    c.ws.close();
  });

  it('still cuts off a slow consumer (4408) while others keep up; a healthy client gets every refresh', async () => {
    hub().tuneFanout({ fanoutSliceSize: 1 });
    try {
      const healthy = await client();
      const slow = await client();
      (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const before = hub().stats.slowConsumers;
      const big = refresh(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT']);
      big.data = Array.from({ length: 20 }, () => big.data).flat();
      let sent = 0;
      while (hub().stats.slowConsumers === before) {
        if (sent >= 400) throw new Error('the slow consumer was never cut off');
        await publish(big);
        sent++;
        await healthy.next(() => true, 5_000, sent - 1);
      }
      await publish(refresh());
      await healthy.next((m) => m.data?.length === 6, 5_000, sent);
      expect(healthy.messages).toHaveLength(sent + 1);
      for (const m of healthy.messages.slice(0, sent)) expect(m).toEqual(big);
      (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      expect((await slow.closed).code).toBe(4408);
      healthy.ws.close();
    } finally {
      hub().tuneFanout({ fanoutSliceSize: 2_000 });
    }
  });

  it('sends the same messages through ws.send when pre-framing is off', async () => {
    hub().tuneFanout({ preFramed: false });
    try {
      const c = await client('?symbol=ETHUSDT');
      const before = { ...hub().stats };
      const published = refresh();
      await publish(published);
      const m = await c.next((x) => Array.isArray(x.data));
      expect(m.data).toEqual(published.data.filter((d) => d.symbol === 'ETHUSDT'));
      expect(hub().stats.sent - before.sent).toBe(1);
      expect(hub().stats.preFramed).toBe(before.preFramed);
      c.ws.close();
    } finally {
      hub().tuneFanout({ preFramed: true });
    }
  });
});
