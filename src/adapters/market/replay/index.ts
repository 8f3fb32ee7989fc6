import { basename, join } from 'node:path';
import { readdir } from 'node:fs/promises';
import {
  type Candle,
  type CandleFileInfo,
  type FundingPoint,
  type MarketEvent,
  type MarketSource,
  listCandleFiles,
  readCandleFile,
  readFundingFile,
} from '../../../modules/market/index.ts';
import {
  KNOWN_EXCHANGES,
  canonicalCandidate,
  INTERVAL_MS,
  isDollar,
  splitSymbol,
} from '../../../modules/identifiers/index.ts';
import type { Clock } from '../../../shared/clock.ts';
import { type PeriodicJob, periodicJob } from '../../../shared/periodic-job.ts';

/** The symbols a replay plays: a list, or the `top` N of the folder by recorded quote volume. */
export type ReplaySymbols =
  | {
      /** Symbols wanted; those without a file are left out and listed in `missing` (or refused under `strict`). */
      symbols: readonly string[];
      top?: undefined;
    }
  | {
      /**
       * The N dollar-quoted symbols of the folder (no stablecoin base) whose chosen file has the largest mean
       * quote volume per recorded day; fewer when the folder has fewer (refused under `strict`).
       */
      top: number;
      symbols?: undefined;
    };

export type ReplayOptions = ReplaySymbols & {
  folder: string;
  /** Refuse to start when a wanted symbol has no file in the folder (with `top`: when it has fewer than N). */
  strict?: boolean;
  /** Recorded seconds per wall second. */
  speed: number;
  /** Recorded time the replay starts at; default one day after the latest first bar of the chosen files. */
  startAt?: number;
  /** Wall clock (tests drive it). */
  wallClock?: Clock;
  tickMs?: number;
};

export interface DerivedTrade {
  time: number;
  price: number;
  size: number;
  side: 'buy' | 'sell';
}

/**
 * Trades consistent with one bar: open at the bar's start, the first extreme at 30 % of the bar, the other
 * at 70 %, the close in the last minute, volume split evenly. The extreme nearer the open comes first (a
 * bar closing up usually visits its low first). Rebuilding candles from these trades gives back the bar's
 * open, high, low, close and volume exactly; for bars longer than a minute it also gives 1m bars.
 */
export function deriveTrades(bar: Candle, intervalMs: number): DerivedTrade[] {
  const upFirst = Math.abs(bar.high - bar.open) < Math.abs(bar.open - bar.low);
  const first = upFirst ? bar.high : bar.low;
  const second = upFirst ? bar.low : bar.high;
  const minute = 60_000;
  const at = (f: number) =>
    bar.openTime + Math.min(intervalMs - 1, Math.floor((intervalMs * f) / minute) * minute + 1);
  const size = bar.volume / 4;
  const points: Array<[number, number]> = [
    [bar.openTime, bar.open],
    [at(0.3), first],
    [at(0.7), second],
    [bar.openTime + intervalMs - (intervalMs > minute ? minute - 2 : 2), bar.close],
  ];
  let prev = bar.open;
  return points.map(([time, price]) => {
    const side: 'buy' | 'sell' = price >= prev ? 'buy' : 'sell';
    prev = price;
    return { time, price, size, side };
  });
}

/** 1-minute candles of a bar's derived trades. */
export function minuteBars(bar: Candle, intervalMs: number): Candle[] {
  const out: Candle[] = [];
  for (const t of deriveTrades(bar, intervalMs)) {
    const m = Math.floor(t.time / 60_000) * 60_000;
    const c = out.at(-1);
    if (c && c.openTime === m) {
      c.high = Math.max(c.high, t.price);
      c.low = Math.min(c.low, t.price);
      c.close = t.price;
      c.volume += t.size;
      c.quoteVolume += t.size * t.price;
    } else {
      out.push({
        openTime: m,
        open: t.price,
        high: t.price,
        low: t.price,
        close: t.price,
        volume: t.size,
        quoteVolume: t.size * t.price,
      });
    }
  }
  return out;
}

interface Series {
  symbol: string;
  info: CandleFileInfo;
  intervalMs: number;
  bars: Candle[];
  funding: FundingPoint[];
  /** Index of the next bar to play. */
  next: number;
  fundingNext: number;
  sequence: number;
  lastPrice: number | undefined;
}

/**
 * Replays recorded candle files (freqtrade JSON / CSV) as one venue: trades derived from each bar, a book
 * around the last price while a bar is in progress, funding at its recorded times. Time is the recording's:
 * the source's clock runs from `startAt` at `speed`. Gaps in the files produce no events (the venue goes
 * stale and no candles are built), never invented bars.
 */
export async function replaySource(options: ReplayOptions): Promise<
  MarketSource & {
    series: Map<string, Series>;
    /** Wanted symbols the folder has no candle file for. */
    missing: string[];
    playUntil(now: number, sink: (e: MarketEvent) => void): void;
  }
> {
  const files = await listCandleFiles(options.folder);
  const names = await readdir(options.folder);
  const folderName = basename(options.folder).toLowerCase();
  const venue = KNOWN_EXCHANGES.find((e) => folderName.includes(e)) ?? 'replay';
  const series = new Map<string, Series>();
  const missing: string[] = [];
  const chosen = new Map<string, { file: CandleFileInfo; bars: Candle[] }>();
  let wanted: readonly string[];
  if (options.top !== undefined) {
    // Every dollar-quoted symbol of the folder with its chosen file, ranked by mean quote volume per recorded day.
    const ranked: Array<{ symbol: string; perDay: number }> = [];
    for (const symbol of new Set(files.map((f) => f.symbol))) {
      const { base, quote } = splitSymbol(symbol);
      if (quote !== 'USDT' || isDollar(base)) continue;
      const picked = await pickFile(files, symbol);
      if (!picked) continue;
      const { bars, file } = picked;
      const days = (bars.at(-1)!.openTime + INTERVAL_MS[file.interval] - bars[0]!.openTime) / 86_400_000;
      ranked.push({ symbol, perDay: bars.reduce((sum, b) => sum + b.quoteVolume, 0) / days });
      chosen.set(symbol, picked);
    }
    ranked.sort((a, b) => b.perDay - a.perDay || a.symbol.localeCompare(b.symbol));
    wanted = ranked.slice(0, options.top).map((r) => r.symbol);
    // The bars of the symbols left out are not kept.
    for (const symbol of [...chosen.keys()]) if (!wanted.includes(symbol)) chosen.delete(symbol);
    if (wanted.length < options.top && options.strict)
      throw new Error(
        `replay: top:${options.top} asked, but ${options.folder} has candle files for ${wanted.length} dollar-quoted symbols (strict replay refuses to start with fewer)`,
      );
  } else {
    wanted = options.symbols;
  }
  for (const symbol of wanted) {
    const picked = chosen.get(symbol) ?? (await pickFile(files, symbol));
    if (!picked) {
      missing.push(symbol);
      continue;
    }
    const { file: chosenFile, bars } = picked;
    const fundingName = names.find(
      (n) =>
        /funding_rate\.json$/i.test(n) &&
        canonicalCandidate(n.split('-')[0]!.replace(/^([A-Z0-9]+)_([A-Z0-9]+)_\2$/i, '$1_$2')) === symbol,
    );
    series.set(symbol, {
      symbol,
      info: chosenFile,
      intervalMs: INTERVAL_MS[chosenFile.interval],
      bars,
      funding: fundingName ? await readFundingFile(join(options.folder, fundingName)) : [],
      next: 0,
      fundingNext: 0,
      sequence: 0,
      lastPrice: undefined,
    });
  }
  if (missing.length && options.strict)
    throw new Error(
      `replay: no candle file for ${missing.join(', ')} in ${options.folder} (strict replay refuses to start without every configured symbol)`,
    );
  if (series.size === 0)
    throw new Error(
      options.top !== undefined
        ? `replay: top:${options.top} found no dollar-quoted candle files in ${options.folder}`
        : `replay: no candle files for ${wanted.join(', ')} in ${options.folder}`,
    );
  const firstBars = [...series.values()].map((s) => s.bars[0]?.openTime ?? 0);
  const startAt = options.startAt ?? Math.max(...firstBars) + 86_400_000;
  const wall = options.wallClock ?? { now: () => Date.now() };
  const wallStart = wall.now();
  const clock: Clock = {
    now: () => startAt + Math.floor((wall.now() - wallStart) * options.speed),
    rate: options.speed,
  };
  const tickMs = options.tickMs ?? 100;
  let playing: PeriodicJob | undefined;
  let emittedUpTo = startAt;

  // Position every series at the first bar not before the replay start.
  for (const s of series.values()) {
    s.next = lowerBound(s.bars, startAt);
    while (s.fundingNext < s.funding.length && s.funding[s.fundingNext]!.time < startAt) s.fundingNext++;
    s.lastPrice = s.bars[s.next - 1]?.close;
  }

  function playUntil(now: number, sink: (e: MarketEvent) => void): void {
    for (const s of series.values()) {
      while (s.next < s.bars.length && s.bars[s.next]!.openTime <= now) {
        const bar = s.bars[s.next]!;
        for (const t of deriveTrades(bar, s.intervalMs)) {
          if (t.time < emittedUpTo) continue; // already played (bar straddling the start)
          if (t.time > now) break;
          sink({
            kind: 'trade',
            venue,
            symbol: s.symbol,
            price: t.price,
            size: t.size,
            side: t.side,
            exchangeTime: t.time,
            receiveTime: t.time,
          });
          s.lastPrice = t.price;
        }
        if (bar.openTime + s.intervalMs <= now) s.next++;
        else break;
      }
      while (s.fundingNext < s.funding.length && s.funding[s.fundingNext]!.time <= now) {
        const f = s.funding[s.fundingNext++]!;
        sink({
          kind: 'funding',
          venue,
          symbol: s.symbol,
          rate: f.rate,
          exchangeTime: f.time,
          receiveTime: f.time,
        });
      }
      // A book while a bar covers `now` (not inside a gap): 20 levels, 1 bp apart, sized by the bar's volume.
      const bar = s.bars[s.next];
      const live = bar !== undefined && bar.openTime <= now && now < bar.openTime + s.intervalMs;
      if (live && s.lastPrice !== undefined) {
        const p = s.lastPrice;
        const perLevel = Math.max(bar.volume / 20, 1e-6);
        const bids: Array<[number, number]> = [];
        const asks: Array<[number, number]> = [];
        for (let k = 0; k < 20; k++) {
          bids.push([p * (1 - (0.5 + k) / 10_000), perLevel * (1 + k / 5)]);
          asks.push([p * (1 + (0.5 + k) / 10_000), perLevel * (1 + k / 5)]);
        }
        sink({
          kind: 'book_snapshot',
          venue,
          symbol: s.symbol,
          sequence: ++s.sequence,
          bids,
          asks,
          exchangeTime: now,
          receiveTime: now,
        });
      }
    }
    emittedUpTo = now + 1;
  }

  return {
    kind: 'replay',
    venues: [venue],
    symbols: [...series.keys()],
    clock,
    persistVenueHistory: false,
    historySince: Math.floor(Math.min(...firstBars) / 86_400_000) * 86_400_000,
    series,
    missing,
    playUntil,
    async *backfill(v, symbol, fromMs, toMs) {
      const s = series.get(symbol);
      if (!s || v !== venue) return;
      const out: Candle[] = [];
      for (let i = lowerBound(s.bars, fromMs - s.intervalMs); i < s.bars.length; i++) {
        const bar = s.bars[i]!;
        if (bar.openTime >= toMs) break;
        for (const m of minuteBars(bar, s.intervalMs))
          if (m.openTime >= fromMs && m.openTime < toMs) out.push(m);
        if (out.length >= 10_000) yield out.splice(0);
      }
      if (out.length) yield out;
    },
    async fundingHistory(symbol, fromMs, toMs) {
      const s = series.get(symbol);
      if (!s) return [];
      const end = Math.min(toMs, clock.now() + 1);
      return s.funding.filter((f) => f.time >= fromMs && f.time < end);
    },
    async start(sink) {
      // A failed step is counted (meridian_job_failures_total) and playing goes on.
      playing = periodicJob({
        name: 'market-replay',
        everyMs: tickMs,
        run: () => playUntil(clock.now(), sink),
      });
      await playing.runNow();
      playing.start();
    },
    async stop() {
      await playing?.stop();
      playing = undefined;
    },
  };
}

/** The file a symbol is played from (spot before futures, then `longestSpan`), with its bars. */
async function pickFile(
  files: readonly CandleFileInfo[],
  symbol: string,
): Promise<{ file: CandleFileInfo; bars: Candle[] } | undefined> {
  const candidates = files.filter((f) => f.symbol === symbol);
  const spot = candidates.filter((f) => f.market === 'spot');
  return longestSpan(spot.length ? spot : candidates);
}

/**
 * The file covering the longest recorded span wins: a folder often holds a short fine-grained recording next
 * to a long coarse one (a day of 1m beside four months of 5m), and replay wants the long history — the model
 * and every chart need it, and 1m bars are rebuilt from coarser bars anyway. Ties go to the finer interval.
 */
async function longestSpan(
  candidates: readonly CandleFileInfo[],
): Promise<{ file: CandleFileInfo; bars: Candle[] } | undefined> {
  let best: { file: CandleFileInfo; bars: Candle[]; span: number } | undefined;
  for (const file of candidates) {
    const bars = await readCandleFile(file.path);
    if (bars.length === 0) continue;
    const span = bars.at(-1)!.openTime + INTERVAL_MS[file.interval] - bars[0]!.openTime;
    if (!best || span > best.span) best = { file, bars, span };
  }
  return best;
}

function lowerBound(bars: readonly Candle[], t: number): number {
  let lo = 0;
  let hi = bars.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (bars[mid]!.openTime < t) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
