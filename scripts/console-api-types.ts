import { fileURLToPath } from 'node:url';
import openapiTS, { astToString } from 'openapi-typescript';

export const consoleApiTypesPath = fileURLToPath(
  new URL('../console/src/api/schema.gen.ts', import.meta.url),
);

const banner =
  "// Generated from the server's OpenAPI document by `npm run console:api`. Do not edit by hand:\n" +
  '// `npm test` regenerates it and fails when this file differs (a route changed without regenerating).\n\n';

/** The TypeScript the console's typed client (openapi-fetch) is built on, for one OpenAPI document. */
export async function openApiToTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)), { alphabetize: true });
  return banner + astToString(ast);
}
