// The whole Meridian app (auth, rate limit, request hooks — everything a client meets) serving
// GET /api/predictions from a service that has refreshed 100 times (the same fixture as predictions-server.ts,
// so the body is 96 datapoints with quantiles). Writes the response bytes to a file for the raw baseline.
import { writeFileSync } from 'node:fs';
import { openDatabase } from '../../src/adapters/db/connect.ts';
import { buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import { benchService } from '../predictions-fixture.ts';

const config = loadConfig({ ...process.env, LOG_LEVEL: 'silent', MERIDIAN_DATA_DIR: '' });
const container = await buildContainer(config, { db: await openDatabase({}) });
const { service } = await benchService(100);
container.predictions = { ...container.predictions, service };
const app = await buildServer(container, { logLevel: 'silent' });
const { user } = await container.accounts.createUser({
  email: 'bench@example.com',
  role: 'admin',
  password: 'bench-password-1',
});
await container.accounts.setPlan(user.email, 'pro', 1_000_000_000);
const { token } = await container.accounts.createToken(user.id, { name: 'bench' });
await app.listen({ port: 0, host: '127.0.0.1' });
const path = '/api/predictions?symbol=BTCUSDT&horizon=1h&granularity=1m&limit=96&include=quantiles';
const res = await app.inject({ url: path, headers: { authorization: `Bearer ${token}` } });
if (res.statusCode !== 200) throw new Error(`bench target: ${res.statusCode} ${res.body}`);
writeFileSync(process.argv[2]!, res.rawPayload);
const { port } = app.server.address() as { port: number };
console.log(
  `READY ${JSON.stringify({ url: `http://127.0.0.1:${port}${path}`, token, bytes: String(res.rawPayload.length) })}`,
);
process.on('SIGTERM', async () => {
  await app.close();
  await container.close();
  process.exit(0);
});
