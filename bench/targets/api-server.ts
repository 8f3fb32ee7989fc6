// The real Meridian API (embedded storage in memory, all modules) for load benchmarks. Prints the base URL
// and a token whose account has an effectively unlimited rate limit, so the limiter runs but never refuses.
// `--jobs` runs every background job; `--market` only the market feed (so other jobs do not compete for CPU).
import { buildContainer } from '../../src/app/container.ts';
import { jobRunner } from '../../src/app/jobs.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', MERIDIAN_DATA_DIR: '' });
const container = await buildContainer(config, {
  db: await (await import('../../src/adapters/db/connect.ts')).openDatabase({}),
});
const market = process.argv.includes('--market');
const jobs = jobRunner(
  process.argv.includes('--jobs') ? container.jobs : market ? [container.market.job] : [],
);
await jobs.start();
if (market) await container.market.service.flush();
const app = await buildServer(container, { logLevel: 'silent' });
const { user } = await container.accounts.createUser({
  email: 'bench@example.com',
  role: 'admin',
  password: 'bench-password-1',
});
await container.accounts.setPlan(user.email, 'pro', 1_000_000_000);
const { token } = await container.accounts.createToken(user.id, { name: 'bench' });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}`, token })}`);
process.on('SIGINT', () => process.exit(0));
process.on('SIGTERM', async () => {
  await app.close();
  await jobs.stop();
  await container.close();
  process.exit(0);
});
