import type { Datapoint } from '../api/types.ts';
import { api } from '../api/client.ts';
import { usePush } from './usePush.ts';

export type { StreamState } from './usePush.ts';

export interface StreamOptions {
  symbols?: string[];
  horizon?: string;
  /** Called with each refresh's datapoints within the subscription. */
  onData?: (datapoints: Datapoint[]) => void;
  onSessionEnded?: () => void;
  /** For tests: a client whose push sockets the test provides. */
  client?: Pick<typeof api, 'predictions'>;
}

/**
 * The predictions push channel (`/predictions`), authenticated by the session cookie on the same-origin
 * handshake, so no token ever reaches page script. A new subscription when the symbols or horizon change.
 */
export function usePredictionStream(options: StreamOptions) {
  const client = options.client ?? api;
  const { symbols, horizon } = options;
  // A string, so a new array with the same symbols keeps the same connection.
  const key = `${symbols?.join(',') ?? ''}|${horizon ?? ''}`;
  return usePush((opts) => client.predictions.subscribe({ symbol: symbols, horizon }, opts), key, {
    onItem: ({ data }) => {
      if (data.length) options.onData?.(data);
    },
    onSessionEnded: options.onSessionEnded,
  });
}
