// `npm run console:api`: regenerates the console's API types (console/src/api/schema.gen.ts) from the
// server's OpenAPI document. The drift check (test/console/api-drift.test.ts) runs the same generation.
import { writeFileSync } from 'node:fs';
import { buildContainer } from '../src/app/container.ts';
import { loadConfig } from '../src/config/env.ts';
import { buildServer } from '../src/http/server.ts';
import { consoleApiTypesPath, openApiToTypes } from './console-api-types.ts';

const container = await buildContainer(loadConfig({ LOG_LEVEL: 'silent' }), {
  db: await (await import('../src/adapters/db/connect.ts')).openDatabase({}),
});
const app = await buildServer(container, { logLevel: 'silent' });
await app.ready();
writeFileSync(consoleApiTypesPath, await openApiToTypes(app.swagger()));
await app.close();
await container.close();
console.log(`wrote ${consoleApiTypesPath}`);
process.exit(0);
