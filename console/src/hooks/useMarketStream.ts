import type { MarketItem } from '../api/types.ts';
import { api } from '../api/client.ts';
import { usePush } from './usePush.ts';

export interface MarketStreamOptions {
  /** Called with each snapshot's items (every symbol, the default notional). */
  onSnapshot?: (items: MarketItem[]) => void;
  onSessionEnded?: () => void;
  /** For tests: a client whose push sockets the test provides. */
  client?: Pick<typeof api, 'market'>;
}

/**
 * The market push channel (`/market`): a snapshot on connect and after each change, authenticated by the
 * session cookie on the same-origin handshake. While it is not `open` the caller polls instead.
 */
export function useMarketStream(options: MarketStreamOptions = {}) {
  const client = options.client ?? api;
  return usePush((opts) => client.market.subscribe({}, opts), 'market', {
    onItem: (snapshot) => {
      if (snapshot.data.length) options.onSnapshot?.(snapshot.data);
    },
    onSessionEnded: options.onSessionEnded,
  });
}
