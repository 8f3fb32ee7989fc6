import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { sdkTypes, sdkTypesPath } from '../../scripts/sdk-types.ts';

describe('the SDK matches the API', () => {
  it('packages/client/src/schema.gen.ts is what docs/openapi.json generates (run `npm run sdk:types`)', async () => {
    const expected = await sdkTypes();
    const committed = readFileSync(sdkTypesPath, 'utf8');
    const a = committed.split('\n');
    const b = expected.split('\n');
    const line = a.findIndex((text, i) => text !== b[i]);
    const where =
      line < 0 ? `length ${a.length} vs ${b.length} lines` : `line ${line + 1}: "${b[line]?.trim()}"`;
    expect(
      committed === expected,
      `SDK types differ from docs/openapi.json (${where}): run \`npm run openapi\``,
    ).toBe(true);
  });
});
