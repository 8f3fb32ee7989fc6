// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { Datapoint } from '../api/types.ts';
import { streamUrl, usePredictionStream } from './usePredictionStream.ts';

/** A stand-in WebSocket the test drives by hand. */
class FakeSocket {
  static all: FakeSocket[] = [];
  onopen: (() => void) | null = null;
  onmessage: ((event: { data: string }) => void) | null = null;
  onclose: ((event: { code: number }) => void) | null = null;
  closedWith: number | undefined;
  constructor(readonly url: string) {
    FakeSocket.all.push(this);
  }
  close(code: number) {
    this.closedWith = code;
  }
  open() {
    act(() => this.onopen?.());
  }
  receive(message: unknown) {
    act(() => this.onmessage?.({ data: typeof message === 'string' ? message : JSON.stringify(message) }));
  }
  drop(code: number) {
    act(() => this.onclose?.({ code }));
  }
}

const datapoint = {
  symbol: 'BTCUSDT',
  horizon: '1h',
  prediction: 101,
  generatedAt: '2026-01-01T00:00:00Z',
} as Datapoint;
const origin = 'http://console.test:8080';

describe('usePredictionStream', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('builds the push URL for the page origin with the subscription', () => {
    expect(streamUrl('https://example.com', ['BTCUSDT', 'ETHUSDT'], '1h')).toBe(
      'wss://example.com/predictions?symbol=BTCUSDT%2CETHUSDT&horizon=1h',
    );
    expect(streamUrl('http://127.0.0.1:8080', undefined, undefined)).toBe('ws://127.0.0.1:8080/predictions');
  });

  it('hands each refresh to onData and ignores control and malformed messages', () => {
    const onData = vi.fn();
    const { result } = renderHook(() =>
      usePredictionStream({
        symbols: ['BTCUSDT'],
        horizon: '1h',
        onData,
        origin,
        WebSocketImpl: FakeSocket as never,
      }),
    );
    const socket = FakeSocket.all[0]!;
    expect(socket.url).toBe('ws://console.test:8080/predictions?symbol=BTCUSDT&horizon=1h');
    expect(result.current.state).toBe('connecting');
    socket.open();
    expect(result.current.state).toBe('open');
    socket.receive({ type: 'pong' });
    socket.receive('not json');
    socket.receive({ data: [] });
    expect(onData).not.toHaveBeenCalled();
    socket.receive({ data: [datapoint, datapoint] });
    expect(onData).toHaveBeenCalledWith([datapoint, datapoint]);
    expect(result.current.received).toBe(2);
    expect(result.current.lastAt).toBeTypeOf('number');
  });

  it('reconnects with growing backoff after a dropped connection', () => {
    const { result } = renderHook(() => usePredictionStream({ origin, WebSocketImpl: FakeSocket as never }));
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(1006);
    expect(result.current.state).toBe('closed');
    act(() => vi.advanceTimersByTime(999));
    expect(FakeSocket.all).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeSocket.all).toHaveLength(2);
    FakeSocket.all[1]!.drop(1006); // never opened: the next wait doubles
    act(() => vi.advanceTimersByTime(1999));
    expect(FakeSocket.all).toHaveLength(2);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeSocket.all).toHaveLength(3);
  });

  it('stops and reports the end of the session on close 4401', () => {
    const onSessionEnded = vi.fn();
    const { result } = renderHook(() =>
      usePredictionStream({ origin, onSessionEnded, WebSocketImpl: FakeSocket as never }),
    );
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4401);
    expect(result.current.state).toBe('ended');
    expect(onSessionEnded).toHaveBeenCalledTimes(1);
    act(() => vi.advanceTimersByTime(60_000));
    expect(FakeSocket.all).toHaveLength(1);
  });

  it('closes the socket on unmount and opens a new one when the subscription changes', () => {
    const { rerender, unmount } = renderHook(
      (props: { symbols: string[] }) =>
        usePredictionStream({ symbols: props.symbols, origin, WebSocketImpl: FakeSocket as never }),
      { initialProps: { symbols: ['BTCUSDT'] } },
    );
    rerender({ symbols: ['BTCUSDT'] }); // same subscription (a new array): same socket
    expect(FakeSocket.all).toHaveLength(1);
    rerender({ symbols: ['ETHUSDT'] });
    expect(FakeSocket.all).toHaveLength(2);
    expect(FakeSocket.all[0]!.closedWith).toBe(1000);
    expect(FakeSocket.all[1]!.url).toContain('symbol=ETHUSDT');
    unmount();
    expect(FakeSocket.all[1]!.closedWith).toBe(1000);
  });
});
