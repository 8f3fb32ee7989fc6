// `npm run sdk:types`: regenerates the SDK's types (packages/client/src/schema.gen.ts) from docs/openapi.json;
// the console uses the SDK, so these are its types too.
// test/sdk/types-drift.test.ts runs the same generation and fails when the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openApiToTypes } from './api-types.ts';

export const sdkTypesPath = fileURLToPath(new URL('../packages/client/src/schema.gen.ts', import.meta.url));

export async function sdkTypes(): Promise<string> {
  const document = JSON.parse(readFileSync(new URL('../docs/openapi.json', import.meta.url), 'utf8'));
  return openApiToTypes(document);
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(sdkTypesPath, await sdkTypes());
  process.stdout.write(`wrote ${sdkTypesPath}\n`);
}
