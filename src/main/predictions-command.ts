import { parseArgs } from 'node:util';
import { type DbHandle, openDatabase, tablesOf } from '../adapters/db/connect.ts';
import { migrateToLatest } from '../adapters/db/migrate.ts';
import type { Config } from '../config/env.ts';
import {
  type LedgerHead,
  type LedgerVerification,
  type PredictionsTables,
  type PublicLedgerEntry,
  createKyselyPredictionRepository,
  createLedgerVerifier,
  formatLedgerVerification,
  verifyStoredLedger,
} from '../modules/predictions/index.ts';
import { eachLine } from './file-lines.ts';

export const predictionsUsage = `meridian predictions verify [--file LEDGER.jsonl] [--head SEQ:HASH] [--json]
  Re-checks the forecast ledger: every entry's SHA-256 and its link to the one before, the stored datapoints
  against what their entries committed, and each scored outcome against the committed forecast. Reads the
  storage (the data folder or database; with embedded storage the server must be stopped), or --file: an
  export, one entry of GET /api/predictions/ledger per line. --head checks the chain still holds a head seen
  earlier (a Meridian-Ledger-Head value). Exit status 1 names the first broken entry.`;

type Result = { code: number; out: string[]; err: string[] };

const options = {
  file: { type: 'string' },
  head: { type: 'string' },
  json: { type: 'boolean' },
} as const;

/** Whether the command reads the storage (so the caller holds the data folder's lock) rather than a file. */
export function readsStorage(args: string[]): boolean {
  const { values } = parseArgs({ args: args.slice(1), options, strict: false });
  return values.file === undefined;
}

/** `meridian predictions verify …`. */
export async function runPredictionsCommand(
  config: Config,
  args: string[],
  /** An open database to use (tests); otherwise the configured one is opened, migrated and closed. */
  given?: DbHandle,
): Promise<Result> {
  const [sub, ...rest] = args;
  const usage = (message: string): Result => ({ code: 2, out: [], err: [message, predictionsUsage] });
  if (sub !== 'verify') return usage(`unknown predictions command ${JSON.stringify(sub ?? '')}`);
  let values: { file?: string; head?: string; json?: boolean };
  try {
    ({ values } = parseArgs({ args: rest, options }));
  } catch (error) {
    return usage((error as Error).message);
  }
  let expectHead: LedgerHead | undefined;
  if (values.head !== undefined) {
    const m = /^(\d+):([0-9a-f]{64})$/.exec(values.head.trim());
    if (!m) return usage('--head must be SEQUENCE:HASH, as the Meridian-Ledger-Head header gives it');
    expectHead = { sequence: Number(m[1]), hash: m[2]! };
  }
  const report =
    values.file !== undefined
      ? await verifyFile(values.file, expectHead)
      : await verifyStorage(config, expectHead, given);
  if (typeof report === 'string') return { code: 1, out: [], err: [report] };
  const lines = values.json ? [JSON.stringify(report)] : formatLedgerVerification(report);
  return report.ok ? { code: 0, out: lines, err: [] } : { code: 1, out: [], err: lines };
}

async function verifyStorage(
  config: Config,
  expectHead: LedgerHead | undefined,
  given: DbHandle | undefined,
): Promise<LedgerVerification> {
  const db = given ?? (await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir }));
  try {
    if (!given) await migrateToLatest(db.db);
    const repository = createKyselyPredictionRepository(tablesOf<PredictionsTables>(db.db));
    return await verifyStoredLedger(repository, { expectHead });
  } finally {
    if (!given) await db.close();
  }
}

/** Verifies an export file line by line (streamed: a million entries need not fit in memory at once). */
async function verifyFile(
  path: string,
  expectHead: LedgerHead | undefined,
): Promise<LedgerVerification | string> {
  const verifier = createLedgerVerifier({ expectHead });
  let number = 0;
  /** Checks one line; a message when it is not an entry at all, false once the verifier found a problem. */
  const line = (text: string): string | boolean => {
    number++;
    if (!text.trim()) return true;
    let entry: PublicLedgerEntry;
    try {
      entry = JSON.parse(text) as PublicLedgerEntry;
    } catch {
      return `${path}:${number}: not a JSON ledger entry`;
    }
    if (typeof entry !== 'object' || entry === null || typeof entry.payload !== 'string')
      return `${path}:${number}: not a ledger entry (no payload)`;
    return verifier.add(entry);
  };
  let failure: string | undefined;
  try {
    await eachLine(path, (text) => {
      const outcome = line(text);
      if (typeof outcome === 'string') failure = outcome;
      return outcome === true;
    });
  } catch (error) {
    return `cannot read ${path}: ${(error as Error).message}`;
  }
  if (failure !== undefined) return failure;
  return verifier.finish();
}
