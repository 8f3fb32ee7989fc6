// @vitest-environment happy-dom
import { createMeridianClient } from '@meridian/client';
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fakeSockets } from '../../../packages/client/test/fake-socket.ts';
import type { Datapoint } from '../api/types.ts';
import { useMarketStream } from './useMarketStream.ts';
import { usePredictionStream } from './usePredictionStream.ts';

const datapoint = {
  symbol: 'BTCUSDT',
  horizon: '1h',
  prediction: 101,
  generatedAt: '2026-01-01T00:00:00Z',
} as Datapoint;

/** The console's hooks on an SDK client whose sockets the test drives. */
function setup() {
  const sockets = fakeSockets();
  const client = createMeridianClient({
    baseUrl: 'http://console.test:8080',
    push: { socketFactory: sockets.socketFactory, initialDelayMs: 1000 },
  });
  return { sockets, client };
}
const flush = () => act(() => vi.advanceTimersByTimeAsync(0));

describe('push hooks on the SDK', () => {
  beforeEach(() => {
    vi.useFakeTimers();
    vi.spyOn(Math, 'random').mockReturnValue(1);
  });
  afterEach(() => {
    vi.restoreAllMocks();
    vi.useRealTimers();
  });

  it('usePredictionStream: subscribes, hands each refresh to onData, ignores empty and control messages', async () => {
    const { sockets, client } = setup();
    const onData = vi.fn();
    const { result } = renderHook(() =>
      usePredictionStream({ symbols: ['BTCUSDT'], horizon: '1h', onData, client }),
    );
    await flush();
    expect(result.current.state).toBe('connecting');
    act(() => sockets.all[0]!.open());
    expect(result.current.state).toBe('open');
    expect(sockets.all[0]!.sent).toEqual([
      { type: 'subscribe', id: 'sdk', symbols: ['BTCUSDT'], horizons: ['1h'] },
    ]);
    sockets.all[0]!.receive({ type: 'pong' });
    sockets.all[0]!.receive('not json');
    sockets.all[0]!.receive({ data: [] });
    sockets.all[0]!.receive({ data: [datapoint, datapoint] });
    await flush();
    expect(onData).toHaveBeenCalledTimes(1);
    expect(onData).toHaveBeenCalledWith([datapoint, datapoint]);
    expect(result.current.lastAt).toBeTypeOf('number');
  });

  it('useMarketStream: snapshots to onSnapshot; a dropped socket shows closed until the SDK reconnects', async () => {
    const { sockets, client } = setup();
    const onSnapshot = vi.fn();
    const { result } = renderHook(() => useMarketStream({ onSnapshot, client }));
    await flush();
    expect(sockets.all[0]!.url).toBe('ws://console.test:8080/market');
    act(() => sockets.all[0]!.open());
    sockets.all[0]!.receive({
      type: 'snapshot',
      at: 'x',
      source: 'simulated',
      asOf: null,
      stale: false,
      data: [],
    });
    sockets.all[0]!.receive({
      type: 'snapshot',
      at: 'x',
      source: 'simulated',
      asOf: null,
      stale: false,
      data: [{ symbol: 'BTCUSDT', price: 101 }],
    });
    await flush();
    expect(onSnapshot).toHaveBeenCalledTimes(1);
    expect(onSnapshot).toHaveBeenCalledWith([{ symbol: 'BTCUSDT', price: 101 }]);

    act(() => sockets.all[0]!.drop(1006));
    expect(result.current.state).toBe('closed');
    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(sockets.all).toHaveLength(2);
    act(() => sockets.all[1]!.open());
    expect(result.current.state).toBe('open');
  });

  it('close 4401: state ended, onSessionEnded once, no reconnect', async () => {
    const { sockets, client } = setup();
    const onSessionEnded = vi.fn();
    const { result } = renderHook(() => usePredictionStream({ onSessionEnded, client }));
    await flush();
    act(() => sockets.all[0]!.open());
    act(() => sockets.all[0]!.drop(4401));
    await flush();
    expect(result.current.state).toBe('ended');
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    await act(() => vi.advanceTimersByTimeAsync(60_000));
    expect(sockets.all).toHaveLength(1);
  });

  it('closes the socket on unmount and subscribes anew when the subscription changes', async () => {
    const { sockets, client } = setup();
    const { rerender, unmount } = renderHook(
      (props: { symbols: string[] }) => usePredictionStream({ symbols: props.symbols, client }),
      { initialProps: { symbols: ['BTCUSDT'] } },
    );
    await flush();
    rerender({ symbols: ['BTCUSDT'] }); // same subscription (a new array): same socket
    await flush();
    expect(sockets.all).toHaveLength(1);
    rerender({ symbols: ['ETHUSDT'] });
    await flush();
    expect(sockets.all).toHaveLength(2);
    expect(sockets.all[0]!.closedWith).toBe(1000);
    act(() => sockets.all[1]!.open());
    expect(sockets.all[1]!.sent[0]).toMatchObject({ symbols: ['ETHUSDT'] });
    unmount();
    expect(sockets.all[1]!.closedWith).toBe(1000);
  });
});
