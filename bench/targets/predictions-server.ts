// GET /api/predictions served by Fastify with the production route module and error handling, from a
// service that has refreshed 100 times. Prints READY with the URL and writes the response bytes to a file
// so the raw node:http baseline serves the very same bytes. No auth or rate-limit hooks: this isolates the
// route module; bench/targets/predictions-app.ts measures the whole app.
import { writeFileSync } from 'node:fs';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { registerErrorHandling } from '../../src/http/plugins/errors.ts';
import { predictionsRoutes } from '../../src/http/routes/predictions.ts';
import type { App } from '../../src/http/types.ts';
import { benchService } from '../predictions-fixture.ts';
import { DEFAULT_SYMBOLS, createSupportedSymbols } from '../../src/modules/identifiers/index.ts';

const { service } = await benchService(100);
const app = Fastify({
  ajv: {
    customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: false },
  },
}).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
registerErrorHandling(app);
await app.register(
  predictionsRoutes({ predictions: service, symbols: createSupportedSymbols(DEFAULT_SYMBOLS) }),
);
await app.listen({ port: 0, host: '127.0.0.1' });
const path = '/api/predictions?symbol=BTCUSDT&horizon=1h&granularity=1m&limit=96&include=quantiles';
const res = await app.inject({ url: path });
writeFileSync(process.argv[2]!, res.rawPayload);
const { port } = app.server.address() as { port: number };
console.log(
  `READY ${JSON.stringify({ url: `http://127.0.0.1:${port}${path}`, bytes: String(res.rawPayload.length) })}`,
);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
