import { useEffect, useRef, useState } from 'react';
import type { MarketItem } from '../api/types.ts';
import type { StreamState } from './usePredictionStream.ts';

export interface MarketStreamOptions {
  /** Called with each snapshot's items (every symbol, the default notional). */
  onSnapshot?: (items: MarketItem[]) => void;
  /** Called when the server closes with 4401 (the session ended): no automatic reconnect then. */
  onSessionEnded?: () => void;
  /** For tests: the WebSocket constructor and the page location. */
  WebSocketImpl?: typeof WebSocket;
  origin?: string;
}

/** ws(s)://host/market for the page's own origin. */
export function marketStreamUrl(origin: string) {
  const url = new URL('/market', origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  return url.toString();
}

/**
 * The market push channel: a snapshot on connect and after each change. Authenticated by the session cookie
 * on the same-origin handshake, like the predictions channel. Reconnects with capped exponential backoff,
 * except after 4401 (session ended). While it is not `open` the caller polls instead.
 */
export function useMarketStream(options: MarketStreamOptions = {}) {
  const { WebSocketImpl, origin } = options;
  const [state, setState] = useState<StreamState>('connecting');
  const [lastAt, setLastAt] = useState<number | undefined>();
  const callbacks = useRef(options);
  callbacks.current = options;

  useEffect(() => {
    const Impl = WebSocketImpl ?? globalThis.WebSocket;
    const url = marketStreamUrl(origin ?? globalThis.location.origin);
    let socket: WebSocket | undefined;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let backoff = 1000;
    let stopped = false;

    const connect = () => {
      setState('connecting');
      socket = new Impl(url);
      socket.onopen = () => {
        backoff = 1000;
        setState('open');
      };
      socket.onmessage = (event) => {
        let message: { type?: string; at?: string; data?: MarketItem[] };
        try {
          message = JSON.parse(String(event.data));
        } catch {
          return; // not JSON: nothing the console can use
        }
        if (message.type !== 'snapshot' || !Array.isArray(message.data) || message.data.length === 0) return;
        setLastAt(Date.now());
        callbacks.current.onSnapshot?.(message.data);
      };
      socket.onclose = (event) => {
        if (stopped) return;
        if (event.code === 4401) {
          setState('ended');
          callbacks.current.onSessionEnded?.();
          return;
        }
        setState('closed');
        retry = setTimeout(connect, backoff);
        backoff = Math.min(backoff * 2, 30_000);
      };
    };
    connect();
    return () => {
      stopped = true;
      if (retry) clearTimeout(retry);
      socket?.close(1000);
    };
  }, [WebSocketImpl, origin]);

  return { state, lastAt };
}
