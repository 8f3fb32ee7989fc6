import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { consoleApiTypesPath, openApiToTypes } from '../../scripts/console-api-types.ts';
import { type TestApp, createTestApp } from '../harness/app.ts';
import { firstDifference } from '../harness/drift.ts';

describe('the console API client matches the server', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('console/src/api/schema.gen.ts is what /openapi.json generates today', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/openapi.json' });
    expect(response.statusCode).toBe(200);
    const expected = await openApiToTypes(response.json());
    const committed = readFileSync(consoleApiTypesPath, 'utf8');
    // On failure: a route or schema changed; run `npm run console:api` and commit the regenerated file.
    const where = firstDifference(committed, expected);
    expect(
      committed === expected,
      `console API types differ from /openapi.json (${where}): run \`npm run console:api\` and commit`,
    ).toBe(true);
  });
});
