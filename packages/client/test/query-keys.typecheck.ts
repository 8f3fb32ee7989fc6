// Type-checked by `npm test` (tsc): a query key an operation does not declare must not compile.
import { createMeridianClient } from '../src/index.ts';

const client = createMeridianClient({ baseUrl: 'http://localhost:8080' });
export async function calls() {
  await client.GET('/api/predictions', { params: { query: { symbol: 'BTCUSDT', horizon: '1h', limit: 1 } } });
  await client.GET('/api/account');
  // @ts-expect-error misspelled `horizon`
  await client.GET('/api/predictions', { params: { query: { symbol: 'BTCUSDT', horizn: '1h' } } });
  // @ts-expect-error `symbol` is the history parameter; `symbols` belongs to market-data
  await client.GET('/api/market-history', { params: { query: { symbols: 'BTCUSDT' } } });
}
