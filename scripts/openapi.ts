// `npm run openapi`: writes docs/openapi.json and docs/asyncapi.json (committed) from a default server, then
// the SDK's types (which the console uses too). test/api-docs/drift.test.ts fails when the committed files differ.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { asyncApiPath, generatedApiDocuments, openApiPath } from './openapi-docs.ts';

const { openapi, asyncapi } = await generatedApiDocuments();
writeFileSync(openApiPath, openapi);
writeFileSync(asyncApiPath, asyncapi);
process.stdout.write(`wrote ${fileURLToPath(openApiPath)} and ${fileURLToPath(asyncApiPath)}\n`);
process.exit(0);
