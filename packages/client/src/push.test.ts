import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSockets } from '../test/fake-socket.ts';
import { createMeridianClient, PushClosedError, type PushStatus } from './index.ts';

const snapshot = (price: number) => ({
  type: 'snapshot',
  at: '2026-01-01T00:00:00.000Z',
  source: 'simulated',
  asOf: '2026-01-01T00:00:00.000Z',
  stale: false,
  data: [{ symbol: 'BTCUSDT', price }],
});

describe('push channels (the one reconnect loop)', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    // Full jitter at its ceiling, so each wait is the backoff itself.
    vi.spyOn(Math, 'random').mockReturnValue(1);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('/market: the subscription on the URL, each snapshot, reconnects with doubling waits, status per subscription', async () => {
    const sockets = fakeSockets();
    const client = createMeridianClient({
      baseUrl: 'https://meridian.test/',
      push: { socketFactory: sockets.socketFactory, initialDelayMs: 100 },
    });
    const statuses: PushStatus[] = [];
    const market = client.market.subscribe(
      { symbols: ['BTCUSDT', 'ETHUSDT'] },
      { onStatus: (s) => statuses.push(s) },
    );
    await vi.advanceTimersByTimeAsync(0);
    expect(sockets.all[0]!.url).toBe('wss://meridian.test/market?symbols=BTCUSDT%2CETHUSDT');
    sockets.all[0]!.open();
    sockets.all[0]!.receive({ type: 'pong' });
    sockets.all[0]!.receive(snapshot(101));
    expect((await market.next()).value).toMatchObject({ source: 'simulated', data: [{ price: 101 }] });
    // /market reads nothing: no application pings are sent to it.
    await vi.advanceTimersByTimeAsync(15_000);
    expect(sockets.all[0]!.sent).toEqual([]);

    sockets.all[0]!.drop(1006);
    await vi.advanceTimersByTimeAsync(99);
    expect(sockets.all).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets.all).toHaveLength(2);
    sockets.all[1]!.drop(1006); // never opened: the next wait doubles
    await vi.advanceTimersByTimeAsync(199);
    expect(sockets.all).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(1);
    expect(sockets.all).toHaveLength(3);
    sockets.all[2]!.open();
    expect(statuses.map((s) => s.state)).toEqual(['open', 'reconnecting', 'reconnecting', 'open']);
    await market.return?.();
    expect(sockets.all[2]!.closedWith).toBe(1000);
  });

  it('close 4401 ends the iterator with PushClosedError and never reconnects', async () => {
    const sockets = fakeSockets();
    const client = createMeridianClient({
      baseUrl: 'http://meridian.test',
      push: { socketFactory: sockets.socketFactory },
    });
    const predictions = client.predictions.subscribe({ symbol: 'BTCUSDT', horizon: '1h' });
    await vi.advanceTimersByTimeAsync(0);
    sockets.all[0]!.open();
    expect(sockets.all[0]!.sent).toEqual([
      { type: 'subscribe', id: 'sdk', symbols: ['BTCUSDT'], horizons: ['1h'] },
    ]);
    const next = predictions.next();
    sockets.all[0]!.drop(4401, 'session ended');
    await expect(next).rejects.toBeInstanceOf(PushClosedError);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(sockets.all).toHaveLength(1);
  });
});
