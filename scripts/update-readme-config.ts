// Regenerates the configuration table in README.md from the environment schema.
import { readFileSync, writeFileSync } from 'node:fs';
import { configMarkdownTable } from '../src/config/env.ts';

const readme = readFileSync('README.md', 'utf8');
const next = readme.replace(
  /<!-- config:start -->[\s\S]*<!-- config:end -->/,
  `<!-- config:start -->\n${configMarkdownTable()}\n<!-- config:end -->`,
);
writeFileSync('README.md', next);
