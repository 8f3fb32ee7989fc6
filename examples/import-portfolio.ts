// Imports a CSV portfolio and prints its valuation: `MERIDIAN_URL=… MERIDIAN_TOKEN=mrd_… npx tsx
// examples/import-portfolio.ts holdings.csv`. Safe to re-run after a failure: the Idempotency-Key is derived
// from the file, so a retried upload replays the first answer instead of importing twice.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { MeridianProblemError, createMeridianClient } from '@meridian/client';

const file = process.argv[2];
if (!file) throw new Error('usage: import-portfolio.ts <file.csv>');
const csv = readFileSync(file, 'utf8');
const client = createMeridianClient({
  baseUrl: process.env.MERIDIAN_URL ?? 'http://localhost:8080',
  token: process.env.MERIDIAN_TOKEN,
  retryOn429: true,
});

try {
  const key = `csv-${createHash('sha256').update(csv).digest('hex').slice(0, 32)}`;
  const { data: result } = await client.portfolio.import(csv, { idempotencyKey: key });
  console.log(
    `imported ${result.rows} rows: ${result.inserted} new, ${result.updated} updated, ${result.unchanged} unchanged`,
  );
  const { data: portfolio } = await client.GET('/api/portfolio');
  console.log(JSON.stringify(portfolio.totals ?? portfolio, null, 2));
} catch (error) {
  if (!(error instanceof MeridianProblemError)) throw error;
  console.error(`${error.status} ${error.code}: ${error.detail}`);
  for (const e of error.errors ?? []) console.error(`  ${e.pointer}: ${e.message}`);
  process.exitCode = 1;
}
