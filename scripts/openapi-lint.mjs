// `npm run openapi:lint` (part of `npm test`): Redocly's recommended rules over docs/openapi.json, failing on any
// error or warning (the CLI itself exits 0 on warnings). Offline: telemetry and the update check are off, and
// with `--extends recommended` and no config file it reads nothing but the document.
import { spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const cli = join(
  dirname(createRequire(import.meta.url).resolve('@redocly/cli/package.json')),
  'bin',
  'cli.js',
);
const run = spawnSync(
  process.execPath,
  [
    cli,
    'lint',
    'docs/openapi.json',
    '--extends',
    'recommended',
    '--format',
    'json',
    '--max-problems',
    '1000',
  ],
  {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true', NO_COLOR: '1' },
  },
);
let report;
try {
  report = JSON.parse(run.stdout.slice(run.stdout.indexOf('{')));
} catch {
  process.stderr.write(`openapi:lint: redocly gave no report (exit ${run.status})\n${run.stderr}\n`);
  process.exit(1);
}
for (const p of report.problems) {
  const where = p.location?.[0]?.pointer ?? '';
  process.stderr.write(`${p.severity} ${p.ruleId} ${where}: ${p.message}\n`);
}
const { errors, warnings } = report.totals;
process.stdout.write(
  `openapi:lint: docs/openapi.json, redocly ${report.version} recommended: ${errors} errors, ${warnings} warnings\n`,
);
process.exit(errors + warnings === 0 ? 0 : 1);
