import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sdkTypes, sdkTypesPath } from '../../scripts/sdk-types.ts';
import { firstDifference } from '../harness/drift.ts';

describe('the SDK matches the API', () => {
  it('packages/client/src/schema.gen.ts is what docs/openapi.json generates (run `npm run sdk:types`)', async () => {
    const expected = await sdkTypes();
    const committed = readFileSync(sdkTypesPath, 'utf8');
    const where = firstDifference(committed, expected);
    expect(
      committed === expected,
      `SDK types differ from docs/openapi.json (${where}): run \`npm run openapi\``,
    ).toBe(true);
  });
});
