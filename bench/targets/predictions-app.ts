// The whole Meridian app (auth, rate limit, request hooks — everything a client meets) serving
// GET /api/predictions from a service that has refreshed 100 times (the same fixture as predictions-server.ts,
// so the body is 96 datapoints with quantiles). Writes the response bytes to a file for the raw baseline.
import { writeFileSync } from 'node:fs';
import { benchService } from '../predictions-fixture.ts';
import { benchApp } from './bench-app.ts';

const { service } = await benchService(100);
const { app, container, token } = await benchApp(
  {},
  {
    prepare: (c) => {
      c.predictions = { ...c.predictions, service };
    },
  },
);
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
