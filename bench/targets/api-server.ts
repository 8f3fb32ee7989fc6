// The real Meridian API (embedded storage in memory, all modules) for load benchmarks. Prints the base URL
// and a token whose account has an effectively unlimited rate limit, so the limiter runs but never refuses.
// `--jobs` runs every background job; `--market` only the market feed (so other jobs do not compete for CPU).
import { jobRunner } from '../../src/app/jobs.ts';
import { benchApp } from './bench-app.ts';

const market = process.argv.includes('--market');
let jobs: ReturnType<typeof jobRunner> | undefined;
const { app, container, token } = await benchApp(
  {},
  {
    prepare: async (c) => {
      jobs = jobRunner(process.argv.includes('--jobs') ? c.jobs : market ? [c.market.job] : [], c.logger);
      await jobs.start();
      // Measured after start-up work: history loaded, every symbol's model warmed up.
      if (market || process.argv.includes('--jobs')) await c.market.service.windowsLoaded();
      if (process.argv.includes('--jobs')) await c.predictions.service.warmedUp();
      if (market) await c.market.service.flush();
    },
  },
);
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}`, token })}`);
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', async () => {
  await app.close();
  await jobs?.stop();
  await container.close();
  process.exit(0);
});
