// GET /api/market-data registered on a bare Fastify (no auth, no rate limit, no other hooks) with a running
// simulated market: isolates the route's own serving cost from the shared request pipeline.
import Fastify from 'fastify';
import { simulatedSource } from '../../src/adapters/market/simulated/index.ts';
import { marketRoutes } from '../../src/http/routes/market.ts';
import type { App } from '../../src/http/types.ts';
import { createMemoryCandleRepository } from '../../src/modules/market/repository.ts';
import { createMarketService } from '../../src/modules/market/service.ts';
import { DEFAULT_SYMBOLS } from '../../src/modules/symbols/index.ts';
import { systemClock } from '../../src/shared/clock.ts';

const market = createMarketService({
  source: simulatedSource({ symbols: DEFAULT_SYMBOLS, seed: 42, clock: systemClock }),
  repository: createMemoryCandleRepository(),
  clock: systemClock,
  symbols: DEFAULT_SYMBOLS,
  historyDays: 2,
});
await market.start();
const app = Fastify({ logger: false }) as unknown as App;
await marketRoutes({ market, source: 'simulated' })(app);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}/api/market-data` })}`);
process.on('SIGTERM', async () => {
  await app.close();
  await market.stop();
  process.exit(0);
});
