import { buildContainer } from '../src/app/container.ts';
import { loadConfig } from '../src/config/env.ts';
import { buildServer } from '../src/http/server.ts';

/** The OpenAPI and AsyncAPI documents exactly as a default server serves them, as committed text. */
export async function generatedApiDocuments(): Promise<{ openapi: string; asyncapi: string }> {
  const container = await buildContainer(loadConfig({ LOG_LEVEL: 'silent' }), {
    db: await (await import('../src/adapters/db/connect.ts')).openDatabase({}),
  });
  const app = await buildServer(container, { logLevel: 'silent' });
  try {
    await app.ready();
    const asyncapi = await app.inject({ url: '/asyncapi.json' });
    return {
      openapi: `${JSON.stringify(app.swagger(), null, 2)}\n`,
      asyncapi: `${JSON.stringify(asyncapi.json(), null, 2)}\n`,
    };
  } finally {
    await app.close();
    await container.close();
  }
}

export const openApiPath = new URL('../docs/openapi.json', import.meta.url);
export const asyncApiPath = new URL('../docs/asyncapi.json', import.meta.url);
