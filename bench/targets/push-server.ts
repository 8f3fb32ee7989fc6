// The real Meridian API (embedded mode, memory bus) serving WebSocket /predictions; every second it
// publishes a refresh on the bus exactly as the predictions worker does in the same process.
import { openDatabase } from '../../src/adapters/db/connect.ts';
import { buildContainer } from '../../src/app/container.ts';
import { loadConfig } from '../../src/config/env.ts';
import { buildServer } from '../../src/http/server.ts';
import { topics } from '../../src/shared/bus.ts';
import { answerCpu, refreshDatapoints, timeFanout } from './push-payload.ts';

const config = loadConfig({
  ...process.env,
  LOG_LEVEL: 'silent',
  MERIDIAN_DATA_DIR: '',
  MERIDIAN_WS_CONNECTIONS_PRO: '100000',
});
const container = await buildContainer(config, { db: await openDatabase({}) });
const app = await buildServer(container, { logLevel: 'silent' });
const { user } = await container.accounts.createUser({
  email: 'bench@example.com',
  role: 'viewer',
  password: 'bench-password-1',
});
await container.accounts.setPlan(user.email, 'pro', 1_000_000_000);
const { token } = await container.accounts.createToken(user.id, { name: 'bench' });
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
setInterval(
  () => {
    const datapoints = refreshDatapoints(new Date().toISOString());
    // The memory bus runs its handlers synchronously: this times the whole fan-out.
    timeFanout(() => container.bus.publish(topics.predictionsRefreshed, datapoints));
  },
  Number(process.env.PUSH_REFRESH_MS ?? 1000),
);
answerCpu();
process.send!({
  ready: true,
  url: `ws://127.0.0.1:${port}/predictions`,
  headers: { authorization: `Bearer ${token}` },
});
