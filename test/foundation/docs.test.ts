import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configMarkdownTable } from '../../src/config/env.ts';

describe('documentation stays current', () => {
  it('README lists every environment variable exactly as the schema does (npm run docs:config)', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toContain(configMarkdownTable());
  });

  it('README shows both quick-start commands', () => {
    const readme = readFileSync('README.md', 'utf8');
    expect(readme).toMatch(/npm start/);
    expect(readme).toMatch(/npm test/);
  });
});
