import { useEffect, useRef, useState } from 'react';
import type { Datapoint } from '../api/types.ts';

export type StreamState = 'connecting' | 'open' | 'closed' | 'ended';

export interface StreamOptions {
  symbols?: string[];
  horizon?: string;
  /** Called with each refresh's datapoints (already filtered by the server to the subscription). */
  onData?: (datapoints: Datapoint[]) => void;
  /** Called when the server closes with 4401 (the session ended): no automatic reconnect then. */
  onSessionEnded?: () => void;
  /** For tests: the WebSocket constructor and the page location. */
  WebSocketImpl?: typeof WebSocket;
  origin?: string;
}

/** ws(s)://host/predictions?symbol=…&horizon=… for the page's own origin. */
export function streamUrl(origin: string, symbols: string[] | undefined, horizon: string | undefined) {
  const url = new URL('/predictions', origin);
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  if (symbols?.length) url.searchParams.set('symbol', symbols.join(','));
  if (horizon) url.searchParams.set('horizon', horizon);
  return url.toString();
}

/**
 * The predictions push channel. The console authenticates the WebSocket with its session cookie (sent by
 * the browser on the same-origin handshake; the server checks the Origin), so no token ever reaches page
 * script. Reconnects with capped exponential backoff, except after 4401 (session ended).
 */
export function usePredictionStream(options: StreamOptions) {
  const { symbols, horizon, WebSocketImpl, origin } = options;
  const [state, setState] = useState<StreamState>('connecting');
  const [received, setReceived] = useState(0);
  const [lastAt, setLastAt] = useState<number | undefined>();
  const callbacks = useRef(options);
  callbacks.current = options;
  // A string, so a new array with the same symbols keeps the same connection.
  const symbolList = symbols?.join(',') ?? '';

  useEffect(() => {
    const Impl = WebSocketImpl ?? globalThis.WebSocket;
    const url = streamUrl(
      origin ?? globalThis.location.origin,
      symbolList ? symbolList.split(',') : undefined,
      horizon,
    );
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
        let message: { data?: Datapoint[] };
        try {
          message = JSON.parse(String(event.data));
        } catch {
          return; // not JSON: nothing the console can use
        }
        if (!Array.isArray(message.data) || message.data.length === 0) return;
        setReceived((n) => n + message.data!.length);
        setLastAt(Date.now());
        callbacks.current.onData?.(message.data);
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
  }, [symbolList, horizon, WebSocketImpl, origin]);

  return { state, received, lastAt };
}
