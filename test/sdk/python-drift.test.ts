import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { pythonModels, pythonModelsPath } from '../../scripts/python-client.ts';
import { firstDifference } from '../harness/drift.ts';

describe('the Python SDK matches the API', () => {
  it('clients/python/meridian_client/_generated.py is what docs/openapi.json generates (run `npm run sdk:python`)', () => {
    const expected = pythonModels();
    const committed = readFileSync(pythonModelsPath, 'utf8');
    const where = firstDifference(committed, expected);
    expect(
      committed === expected,
      `Python SDK differs from docs/openapi.json (${where}): run \`npm run openapi\``,
    ).toBe(true);
  });
});
