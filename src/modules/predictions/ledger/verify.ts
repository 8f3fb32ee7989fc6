import { HORIZON_MS, type Horizon } from '../../identifiers/index.ts';
import { type PublicLedgerEntry, presentLedgerEntry } from '../present.ts';
import type { PredictionRepository } from '../repository.ts';
import { ledgerPayload } from './canonical.ts';
import { GENESIS_HASH, type LedgerHead, entryHash } from './chain.ts';

/**
 * What the verifier reads of an entry; `stored` is what the stored datapoint publishes (`ledgerPayload` of
 * its row; storage only).
 */
export type VerifiableEntry = Pick<
  PublicLedgerEntry,
  | 'sequence'
  | 'recordedAtMs'
  | 'symbol'
  | 'horizon'
  | 'generatedAt'
  | 'backfilled'
  | 'payload'
  | 'prevHash'
  | 'hash'
> & { outcome?: PublicLedgerEntry['outcome'] | null; stored?: Record<string, unknown> | null };

export interface LedgerProblem {
  sequence: number;
  symbol: string;
  horizon: string;
  generatedAt: string;
  reason: string;
}

export interface LedgerVerification {
  ok: boolean;
  entries: number;
  /** Outcomes re-checked against the committed datapoint. */
  outcomes: number;
  /** Stored datapoints compared with their entry (storage only). */
  datapoints: number;
  firstSequence: number | null;
  /** The previous hash the first entry checked links to (the genesis hash when it is entry 1). */
  anchor: string | null;
  head: LedgerHead | null;
  problem: LedgerProblem | null;
}

interface Payload {
  symbol?: unknown;
  horizon?: unknown;
  generatedAt?: unknown;
  backfilled?: unknown;
  prediction?: unknown;
  baseline?: unknown;
  quantiles?: Record<string, unknown>;
}

/**
 * Checks ledger entries one at a time, in sequence order, and stops at the first broken one: sequences follow
 * each other, each entry links to the previous hash (entry 1 to the genesis hash), its hash is the SHA-256 of
 * its contents, its columns say what its payload says, a live entry was recorded before its horizon ended,
 * a stored datapoint still equals what was committed, and an outcome agrees with the committed forecast
 * (the hit rule exactly, coverage of p10…p90 and p05…p95 where the realized price is not within rounding of a
 * bound).
 */
export function createLedgerVerifier(options: { expectHead?: LedgerHead } = {}) {
  const expected = options.expectHead;
  const result: LedgerVerification = {
    ok: true,
    entries: 0,
    outcomes: 0,
    datapoints: 0,
    firstSequence: null,
    anchor: null,
    head: null,
    problem: null,
  };
  let previous: LedgerHead | null = null;

  function check(e: VerifiableEntry): string | undefined {
    if (!Number.isSafeInteger(e.sequence) || e.sequence < 1) return 'sequence is not a positive integer';
    if (previous) {
      if (e.sequence !== previous.sequence + 1)
        return `sequence ${e.sequence} follows ${previous.sequence} (an entry is missing, or the export was filtered by symbol or time)`;
      if (e.prevHash !== previous.hash)
        return `prevHash does not match the hash of entry ${previous.sequence}`;
    } else if (e.sequence === 1 && e.prevHash !== GENESIS_HASH)
      return 'entry 1 does not link to the genesis hash';
    if (entryHash(e.sequence, e.recordedAtMs, e.prevHash, e.payload) !== e.hash)
      return 'hash does not match the entry (payload, recordedAtMs or prevHash was changed)';
    if (expected && e.sequence === expected.sequence && e.hash !== expected.hash)
      return `hash differs from the head recorded earlier (${expected.sequence}:${expected.hash}): the ledger was rewritten`;
    let p: Payload;
    try {
      p = JSON.parse(e.payload) as Payload;
    } catch {
      return 'payload is not JSON';
    }
    if (p.symbol !== e.symbol || p.horizon !== e.horizon || p.generatedAt !== e.generatedAt)
      return 'symbol, horizon or generatedAt differ from the payload';
    if (p.backfilled !== e.backfilled) return 'backfilled differs from the payload';
    if (!Object.hasOwn(HORIZON_MS, e.horizon)) return `unknown horizon ${JSON.stringify(e.horizon)}`;
    const horizonMs = HORIZON_MS[e.horizon as Horizon];
    if (!e.backfilled && e.recordedAtMs >= Date.parse(e.generatedAt) + horizonMs)
      return 'a live datapoint recorded only after its horizon had passed';
    if (e.stored != null) {
      result.datapoints++;
      if (!sameValues(e.stored, p)) return 'the stored datapoint differs from what the entry committed';
    }
    if (e.outcome) {
      result.outcomes++;
      return outcomeProblem(p, e.outcome);
    }
    return undefined;
  }

  const fail = (problem: LedgerProblem) => {
    result.ok = false;
    result.problem = problem;
  };
  return {
    /** Checks the next entry; false once a problem is found (the rest is not read). */
    add(e: VerifiableEntry): boolean {
      if (result.problem) return false;
      const reason = check(e);
      if (reason) {
        fail({
          sequence: e.sequence,
          symbol: e.symbol,
          horizon: e.horizon,
          generatedAt: e.generatedAt,
          reason,
        });
        return false;
      }
      if (result.firstSequence === null) {
        result.firstSequence = e.sequence;
        result.anchor = e.prevHash;
      }
      result.entries++;
      previous = { sequence: e.sequence, hash: e.hash };
      result.head = previous;
      return true;
    },
    /** The outcome; `storedHead` is where storage says the chain ends (a chain cut short shows here). */
    finish(storedHead?: LedgerHead): LedgerVerification {
      const none = { symbol: '', horizon: '', generatedAt: '' };
      const end = result.head ?? { sequence: 0, hash: GENESIS_HASH };
      if (
        !result.problem &&
        storedHead &&
        (storedHead.sequence !== end.sequence || storedHead.hash !== end.hash)
      )
        fail({
          sequence: storedHead.sequence,
          ...none,
          reason: `the stored head is ${storedHead.sequence}:${storedHead.hash} but the chain ends at ${end.sequence}:${end.hash}`,
        });
      if (!result.problem && expected && expected.sequence > end.sequence)
        fail({
          sequence: expected.sequence,
          ...none,
          reason: `the ledger ends at entry ${end.sequence}, before the head recorded earlier (${expected.sequence}:${expected.hash}): entries were removed`,
        });
      else if (
        !result.problem &&
        expected &&
        result.firstSequence !== null &&
        expected.sequence < result.firstSequence
      )
        fail({
          sequence: expected.sequence,
          ...none,
          reason: `the head recorded earlier (${expected.sequence}) is before the first entry checked (${result.firstSequence})`,
        });
      return { ...result };
    },
  };
}

/** Reads the stored ledger page by page up to its head and verifies it, with each stored datapoint and outcome. */
export async function verifyStoredLedger(
  repository: Pick<PredictionRepository, 'ledger' | 'ledgerHead'>,
  options: { expectHead?: LedgerHead; pageSize?: number } = {},
): Promise<LedgerVerification> {
  const verifier = createLedgerVerifier(options);
  const head = await repository.ledgerHead();
  const limit = options.pageSize ?? 5_000;
  let after = 0;
  for (;;) {
    const page = await repository.ledger({
      afterSequence: after,
      upToSequence: head.sequence,
      from: 0,
      to: Number.MAX_SAFE_INTEGER,
      limit,
    });
    for (const { entry, row } of page) {
      const verifiable: VerifiableEntry = presentLedgerEntry(entry, row);
      verifiable.stored = row ? ledgerPayload(row) : null;
      if (!verifier.add(verifiable)) return verifier.finish();
    }
    if (page.length < limit) break;
    after = page.at(-1)!.entry.sequence;
  }
  return verifier.finish(head);
}

/**
 * Whether parsed JSON `actual` holds exactly the values `expected` is written with (members that are undefined
 * left out, -0 equal to 0, as JSON writes them). The stored datapoint is compared with its entry's parsed
 * payload this way rather than by serializing it again: the same answer for a payload in canonical form (what
 * the hash chain commits), without writing some thirty numbers back to text per entry.
 */
function sameValues(expected: unknown, actual: unknown): boolean {
  if (expected === actual) return true;
  if (typeof expected !== 'object' || expected === null || typeof actual !== 'object' || actual === null)
    return false;
  if (Array.isArray(expected) || Array.isArray(actual)) {
    if (!Array.isArray(expected) || !Array.isArray(actual) || expected.length !== actual.length) return false;
    return expected.every((item, k) => sameValues(item, actual[k]));
  }
  const want = expected as Record<string, unknown>;
  const have = actual as Record<string, unknown>;
  let members = 0;
  for (const key of Object.keys(want)) {
    const value = want[key];
    if (value === undefined) continue;
    members++;
    if (!Object.hasOwn(have, key) || !sameValues(value, have[key])) return false;
  }
  return Object.keys(have).length === members;
}

/** Relative distance under which a realized price counts as on a quantile bound (quantiles are rounded). */
const BOUND_TOLERANCE = 1e-9;

function outcomeProblem(p: Payload, o: NonNullable<PublicLedgerEntry['outcome']>): string | undefined {
  const { prediction, baseline, quantiles: q } = p;
  if (typeof prediction !== 'number' || typeof baseline !== 'number')
    return 'payload has no prediction and baseline to score';
  if (typeof o.realized !== 'number' || typeof o.hit !== 'boolean')
    return 'outcome has no realized price or hit';
  const up = prediction >= baseline;
  const hit = up ? o.realized > baseline : o.realized < baseline;
  if (hit !== o.hit)
    return `outcome says hit=${o.hit} but the committed forecast with realized ${o.realized} is hit=${hit}`;
  return (
    coverageProblem(q?.p10, q?.p90, o.realized, o.covered80, 'covered80') ??
    coverageProblem(q?.p05, q?.p95, o.realized, o.covered90, 'covered90')
  );
}

/** Whether a stated coverage disagrees with the committed bounds (none when the price is on a bound). */
function coverageProblem(
  lo: unknown,
  hi: unknown,
  realized: number,
  stated: boolean,
  name: string,
): string | undefined {
  if (typeof lo !== 'number' || typeof hi !== 'number') return undefined;
  if (onBound(realized, lo) || onBound(realized, hi)) return undefined;
  const inside = lo <= realized && realized <= hi;
  return inside === stated
    ? undefined
    : `outcome says ${name}=${stated} but the committed quantiles say ${inside}`;
}

const onBound = (price: number, bound: number) =>
  Math.abs(price - bound) <= BOUND_TOLERANCE * Math.abs(bound);

/** The verification as lines for a terminal. */
export function formatLedgerVerification(v: LedgerVerification): string[] {
  if (v.problem) {
    const p = v.problem;
    return [
      `ledger broken at entry ${p.sequence} (${p.symbol} ${p.horizon} ${p.generatedAt}): ${p.reason}`,
      `${v.entries} entries before it verified`,
    ];
  }
  if (!v.head) return ['ledger is empty: nothing to verify'];
  const anchor =
    v.firstSequence === 1
      ? 'from the genesis hash'
      : `from entry ${v.firstSequence}, anchored on prevHash ${v.anchor} (compare it with an earlier export or head)`;
  return [
    `ledger ok: ${v.entries} entries ${anchor}`,
    `head ${v.head.sequence}:${v.head.hash}`,
    `${v.outcomes} outcomes re-scored against the committed forecasts${v.datapoints ? `, ${v.datapoints} stored datapoints equal their entries` : ''}`,
  ];
}
