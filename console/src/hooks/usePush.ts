import { PushClosedError, type SubscribeOptions } from '@meridian/client';
import { useEffect, useRef, useState } from 'react';

/** A push channel as the console shows it; the SDK reconnects while it is `closed`. */
export type StreamState = 'connecting' | 'open' | 'closed' | 'ended';

export interface PushHandlers<T> {
  onItem(item: T): void;
  /** The server closed with 4401 (the session ended): the SDK does not reconnect then. */
  onSessionEnded?: () => void;
}

/**
 * One SDK push subscription for the life of the component (a new one when `key` changes): its state, when
 * the last item came, and each item handed to `onItem`. Reconnecting, backoff and heartbeats are the SDK's.
 */
export function usePush<T>(
  subscribe: (options: SubscribeOptions) => AsyncIterableIterator<T>,
  key: string,
  handlers: PushHandlers<T>,
) {
  const [state, setState] = useState<StreamState>('connecting');
  const [lastAt, setLastAt] = useState<number | undefined>();
  const latest = useRef({ subscribe, handlers });
  latest.current = { subscribe, handlers };

  // biome-ignore lint/correctness/useExhaustiveDependencies: `key` names the subscription; callbacks are read through the ref
  useEffect(() => {
    let active = true;
    setState('connecting');
    const items = latest.current.subscribe({
      onStatus: (status) => {
        if (active) setState(status.state === 'open' ? 'open' : 'closed');
      },
    });
    (async () => {
      try {
        for await (const item of items) {
          if (!active) return;
          setLastAt(Date.now());
          latest.current.handlers.onItem(item);
        }
      } catch (error) {
        if (!active || !(error instanceof PushClosedError)) return;
        setState('ended');
        latest.current.handlers.onSessionEnded?.();
      }
    })();
    return () => {
      active = false;
      void items.return?.();
    };
  }, [key]);

  return { state, lastAt };
}
