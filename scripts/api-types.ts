import openapiTS, { astToString } from 'openapi-typescript';

const banner =
  "// Generated from the server's OpenAPI document (docs/openapi.json) by `npm run sdk:types`. Do not edit by\n" +
  '// hand: `npm test` regenerates it and fails when this file differs (a route changed without regenerating).\n\n';

/** The TypeScript the SDK's typed client (openapi-fetch) is built on, for one OpenAPI document. */
export async function openApiToTypes(document: unknown): Promise<string> {
  const ast = await openapiTS(JSON.parse(JSON.stringify(document)), { alphabetize: true });
  return banner + astToString(ast);
}
