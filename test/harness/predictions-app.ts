import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify from 'fastify';
import { registerErrorHandling } from '../../src/http/plugins/errors.ts';
import { type PredictionsRouteDeps, predictionsRoutes } from '../../src/http/routes/predictions.ts';
import type { App } from '../../src/http/types.ts';
import { DEFAULT_SYMBOLS, createSupportedSymbols } from '../../src/modules/identifiers/index.ts';

/** The predictions routes alone on a Fastify app validating as the server does, over a given service. */
export async function predictionsRouteApp(predictions: PredictionsRouteDeps['predictions']): Promise<App> {
  const app = Fastify({
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: false },
    },
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;
  registerErrorHandling(app);
  await app.register(predictionsRoutes({ predictions, symbols: createSupportedSymbols(DEFAULT_SYMBOLS) }));
  await app.ready();
  return app;
}
