// @vitest-environment happy-dom
import { act, renderHook } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { marketStreamUrl, useMarketStream } from './useMarketStream.ts';

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

const origin = 'http://console.test:8080';
const item = { symbol: 'BTCUSDT', price: 101 };

describe('useMarketStream', () => {
  beforeEach(() => {
    FakeSocket.all = [];
    vi.useFakeTimers();
  });
  afterEach(() => vi.useRealTimers());

  it('builds the market URL for the page origin', () => {
    expect(marketStreamUrl('https://example.com')).toBe('wss://example.com/market');
    expect(marketStreamUrl('http://127.0.0.1:8080')).toBe('ws://127.0.0.1:8080/market');
  });

  it('hands each snapshot to onSnapshot and ignores other and malformed messages', () => {
    const onSnapshot = vi.fn();
    const { result } = renderHook(() =>
      useMarketStream({ onSnapshot, origin, WebSocketImpl: FakeSocket as never }),
    );
    const socket = FakeSocket.all[0]!;
    expect(socket.url).toBe('ws://console.test:8080/market');
    expect(result.current.state).toBe('connecting');
    socket.open();
    expect(result.current.state).toBe('open');
    socket.receive('not json');
    socket.receive({ type: 'error', data: [item] });
    socket.receive({ type: 'snapshot', data: [] });
    expect(onSnapshot).not.toHaveBeenCalled();
    expect(result.current.lastAt).toBeUndefined();
    socket.receive({ type: 'snapshot', at: '2026-01-01T00:00:00.000Z', data: [item] });
    expect(onSnapshot).toHaveBeenCalledWith([item]);
    expect(result.current.lastAt).toBeTypeOf('number');
  });

  it('reports closed (the caller polls) and reconnects with growing backoff', () => {
    const { result } = renderHook(() => useMarketStream({ origin, WebSocketImpl: FakeSocket as never }));
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(1006);
    expect(result.current.state).toBe('closed');
    act(() => vi.advanceTimersByTime(999));
    expect(FakeSocket.all).toHaveLength(1);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeSocket.all).toHaveLength(2);
    expect(result.current.state).toBe('connecting');
    FakeSocket.all[1]!.drop(1006);
    act(() => vi.advanceTimersByTime(1999));
    expect(FakeSocket.all).toHaveLength(2);
    act(() => vi.advanceTimersByTime(1));
    expect(FakeSocket.all).toHaveLength(3);
    FakeSocket.all[2]!.open();
    expect(result.current.state).toBe('open');
  });

  it('stops after 4401 (session ended) and tells the caller; closes on unmount', () => {
    const onSessionEnded = vi.fn();
    const { result, unmount } = renderHook(() =>
      useMarketStream({ onSessionEnded, origin, WebSocketImpl: FakeSocket as never }),
    );
    FakeSocket.all[0]!.open();
    FakeSocket.all[0]!.drop(4401);
    expect(result.current.state).toBe('ended');
    expect(onSessionEnded).toHaveBeenCalledOnce();
    act(() => vi.advanceTimersByTime(60_000));
    expect(FakeSocket.all).toHaveLength(1);
    unmount();
    expect(FakeSocket.all[0]!.closedWith).toBe(1000);
  });
});
