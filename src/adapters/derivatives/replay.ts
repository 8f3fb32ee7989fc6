import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { DerivativesSource, SeriesPoint, VenueReading } from '../../modules/derivatives/index.ts';
import { KNOWN_EXCHANGES, canonicalCandidate } from '../../modules/identifiers/index.ts';
import {
  type Candle,
  type FundingPoint,
  type OpenInterestRecord,
  readCandleFile,
  readFundingFile,
  readOpenInterestFile,
} from '../../modules/market/index.ts';
import type { Clock } from '../../shared/clock.ts';

export interface ReplayDerivativesOptions {
  /** The recording folder (the market replay's). */
  folder: string;
  symbols: readonly string[];
  /** The replay's clock (recorded time), shared with the market replay. */
  clock: Clock;
}

interface Recorded {
  funding: FundingPoint[];
  mark: Candle[];
  markIntervalMs: number;
  openInterest: OpenInterestRecord[];
}

/** freqtrade's futures pair in a file name (`BTC_USDT_USDT-8h-funding_rate.json`) → canonical symbol. */
const symbolOfFile = (name: string): string | undefined =>
  canonicalCandidate(name.split('-')[0]!.replace(/^([A-Z0-9]+)_([A-Z0-9]+)_\2$/i, '$1_$2'));

const intervalMsOf = (name: string): number => {
  const m = /-(\d+)([mhd])-mark\.json$/i.exec(name);
  if (!m) return 8 * 3_600_000;
  return Number(m[1]) * { m: 60_000, h: 3_600_000, d: 86_400_000 }[m[2]!.toLowerCase() as 'm' | 'h' | 'd'];
};

/** The index of the last element with time ≤ t (binary search), -1 when none. */
function lastAtOrBefore<T>(items: readonly T[], t: number, timeOf: (x: T) => number): number {
  let lo = 0;
  let hi = items.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (timeOf(items[mid]!) <= t) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/**
 * Recorded perpetual data played on the replay's clock: settled funding rates (`*-funding_rate.json`,
 * `[[timeMs, rate, …], …]`), mark prices (`*-mark.json` candles) and open interest (`*-open_interest.json`,
 * `[[timeMs, usd, contracts?], …]`). What the recording lacks — the index price (so basis), a predicted rate,
 * liquidations, open interest without a file — is absent, never 0. History is the
 * file itself, points as recorded (times with their milliseconds of jitter), up to the replay's now.
 */
export async function replayDerivativesSource(options: ReplayDerivativesOptions): Promise<DerivativesSource> {
  const names = await readdir(options.folder);
  const folderName = options.folder.toLowerCase();
  const venue = KNOWN_EXCHANGES.find((e) => folderName.includes(e)) ?? 'replay';
  const recorded = new Map<string, Recorded>();
  for (const symbol of options.symbols) {
    const fundingName = names.find((n) => /funding_rate\.json$/i.test(n) && symbolOfFile(n) === symbol);
    const markName = names.find((n) => /-mark\.json$/i.test(n) && symbolOfFile(n) === symbol);
    const oiName = names.find((n) => /-open_interest\.json$/i.test(n) && symbolOfFile(n) === symbol);
    if (!fundingName && !markName && !oiName) continue;
    recorded.set(symbol, {
      funding: fundingName ? await readFundingFile(join(options.folder, fundingName)) : [],
      mark: markName ? await readCandleFile(join(options.folder, markName)) : [],
      markIntervalMs: markName ? intervalMsOf(markName) : 0,
      openInterest: oiName ? await readOpenInterestFile(join(options.folder, oiName)) : [],
    });
  }
  const { clock } = options;
  return {
    kind: 'replay',
    simulated: false,
    venues: [venue],
    symbols: [...recorded.keys()],
    clock,
    // Settled funding, mark candles and open interest where recorded: no index (so basis) or liquidations.
    metrics: [...recorded.values()].some((r) => r.openInterest.length)
      ? ['funding', 'open_interest']
      : ['funding'],
    liquidationVenues: [],
    async poll(symbol) {
      const r = recorded.get(symbol);
      if (!r) return { readings: [], liquidations: [] };
      const now = clock.now();
      const reading: VenueReading = { venue, symbol, time: now };
      let lastTime = Number.NEGATIVE_INFINITY;
      const f = lastAtOrBefore(r.funding, now, (p) => p.time);
      if (f >= 0) {
        reading.fundingRate = r.funding[f]!.rate;
        reading.fundingIntervalHours = 8;
        const next = r.funding[f + 1];
        if (next) reading.nextFundingTime = next.time;
        lastTime = Math.max(lastTime, next ? now : r.funding[f]!.time);
      }
      // A mark bar's close is known once the bar has closed.
      const m = lastAtOrBefore(r.mark, now - r.markIntervalMs, (c) => c.openTime);
      if (m >= 0) {
        reading.markPrice = r.mark[m]!.close;
        const closedAt = r.mark[m]!.openTime + r.markIntervalMs;
        lastTime = Math.max(lastTime, m + 1 < r.mark.length ? now : closedAt);
      }
      const o = lastAtOrBefore(r.openInterest, now, (p) => p.time);
      if (o >= 0) {
        reading.openInterestUsd = r.openInterest[o]!.usd;
        if (r.openInterest[o]!.contracts !== null)
          reading.openInterestContracts = r.openInterest[o]!.contracts!;
        lastTime = Math.max(lastTime, o + 1 < r.openInterest.length ? now : r.openInterest[o]!.time);
      }
      if (!Number.isFinite(lastTime)) return { readings: [], liquidations: [] };
      // Past the end of the recording the reading keeps its last time, and so turns stale.
      reading.time = Math.min(now, lastTime);
      return { readings: [reading], liquidations: [] };
    },
    async history(v, symbol, metric, fromMs, toMs) {
      const r = recorded.get(symbol);
      if (v !== venue || !r) return undefined;
      const end = Math.min(toMs, clock.now() + 1);
      if (metric === 'open_interest')
        return r.openInterest.length
          ? r.openInterest
              .filter((p) => p.time >= fromMs && p.time < end)
              .map((p): SeriesPoint => ({ time: p.time, value: p.usd, value2: p.contracts }))
          : undefined;
      if (r.funding.length === 0) return undefined;
      return r.funding
        .filter((p) => p.time >= fromMs && p.time < end)
        .map((p): SeriesPoint => ({ time: p.time, value: p.rate, value2: null }));
    },
  };
}
