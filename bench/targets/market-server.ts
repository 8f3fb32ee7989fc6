// The real Meridian API with only the market job running (simulated source, in-memory storage), for the
// GET /api/market-data benchmark. Other jobs are left off so they do not compete for the CPU; auth and the
// rate limiter run on every request (the token's account has an effectively unlimited limit).
import { buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', MERIDIAN_DATA_DIR: '' });
const container = await buildContainer(config, {
  db: await (await import('../../src/adapters/db/connect.ts')).openDatabase({}),
});
await container.market.job.start();
await container.market.service.flush();
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
  await container.market.job.stop();
  await container.close();
  process.exit(0);
});
