import { parseArgs } from 'node:util';
import { type DbHandle, openDatabase, tablesOf } from '../adapters/db/connect.ts';
import { migrateToLatest } from '../adapters/db/migrate.ts';
import { chainLabels, chainSource, resolveChains } from '../app/onchain.ts';
import type { Config } from '../config/env.ts';
import {
  createKyselyOnchainRepository,
  formatVerifyReport,
  loadAddressBook,
  type OnchainTables,
  verifyFlows,
} from '../modules/onchain/index.ts';
import { systemClock } from '../shared/clock.ts';

export const onchainUsage = `meridian onchain verify --chain NAME --from BLOCK --to BLOCK [--json]
  Re-reads the blocks from the chain's node (MERIDIAN_CHAINS, or the single-chain settings), classifies them
  with the configured labels and compares with the stored flows: missing, unexpected and differing flows are
  listed; the exit status is 1 when any is found.`;

/** `meridian onchain verify …`; the caller holds the data folder's lock (embedded storage). */
export async function runOnchainCommand(
  config: Config,
  args: string[],
  /** An open database to use (tests); otherwise the configured one is opened, migrated and closed. */
  given?: DbHandle,
): Promise<{ code: number; out: string[]; err: string[] }> {
  const [sub, ...rest] = args;
  const usage = (message: string) => ({ code: 2, out: [], err: [message, onchainUsage] });
  if (sub !== 'verify') return usage(`unknown onchain command ${JSON.stringify(sub ?? '')}`);
  const { values } = parseArgs({
    args: rest,
    options: {
      chain: { type: 'string' },
      from: { type: 'string' },
      to: { type: 'string' },
      json: { type: 'boolean' },
    },
  });
  const specs = resolveChains(config);
  const spec = specs.find((s) => s.name === values.chain?.toLowerCase());
  if (!spec) return usage(`--chain must be one of ${specs.map((s) => s.name).join(', ')}`);
  const from = Number(values.from);
  const to = Number(values.to);
  if (!Number.isSafeInteger(from) || from < 0 || !Number.isSafeInteger(to) || to < from)
    return usage('--from and --to must be block numbers with from ≤ to');
  if (to - from > 100_000) return usage('verify at most 100000 blocks at a time');

  const book = loadAddressBook({ extraPaths: config.labelsPath });
  const labels = chainLabels(book, spec);
  // Prices do not matter: USD values are not compared.
  const source = await chainSource(spec, labels.labels, {
    prices: { usdPrice: () => undefined },
    clock: systemClock,
  });
  const db = given ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  try {
    if (!given) await migrateToLatest(db.db);
    const repo = createKyselyOnchainRepository(tablesOf<OnchainTables>(db.db));
    const report = await verifyFlows({ source, repo, labels: labels.lookup, fromBlock: from, toBlock: to });
    return {
      code: report.ok ? 0 : 1,
      out: values.json ? [JSON.stringify(report)] : formatVerifyReport(report),
      err: [],
    };
  } finally {
    await source.close?.();
    if (!given) await db.close();
  }
}
