import { mulberry32 } from '../../../shared/random.ts';
/**
 * The simulated market's price model, a pure function of (seed, symbol, time):
 * - daily log prices: mean-reverting (half-life ~120 days) around realistic anchor levels, driven by a
 *   market factor shared by all symbols (beta per symbol) plus an idiosyncratic part, with a stochastic,
 *   market-wide volatility regime;
 * - minutes inside a day: a Brownian bridge between the day's open and close with intraday seasonality,
 *   the same market/idiosyncratic split, and rare jumps;
 * - per venue: a small persistent price offset and noise, and its share of the volume.
 * Any day can be regenerated on its own (after an O(days) walk of daily closes), so a restart regenerates
 * its downtime exactly.
 */
import type { Candle } from '../../../modules/market/index.ts';

/**
 * What the model needs to know about a market. The profiles themselves — the seven hand-written ones and the
 * generated universe of `MERIDIAN_SYMBOLS=top:N` — are in universe.ts; the model is handed a function from
 * symbol to profile.
 */
export interface SymbolProfile {
  /** The price level the daily log price mean-reverts to. */
  anchor: number;
  /** Daily volatility (fraction) at a calm regime. */
  dailyVol: number;
  /** Loading on the market factor shared by all symbols, 0 … 1 (the rest of the variance is idiosyncratic). */
  beta: number;
  /** Total daily quote volume across venues, USD. */
  dailyQuoteVolume: number;
}

export interface VenueProfile {
  share: number;
  halfSpreadBps: number;
  levelStepBps: number;
  /** Depth per level for BTC, USD; scaled by the symbol's liquidity. */
  levelUsd: number;
  latencyMs: number;
  offsetBps: number;
  perpetual: boolean;
}

const VENUE_PROFILES: Record<string, VenueProfile> = {
  binance: {
    share: 0.45,
    halfSpreadBps: 0.4,
    levelStepBps: 1,
    levelUsd: 160_000,
    latencyMs: 25,
    offsetBps: 0,
    perpetual: true,
  },
  okx: {
    share: 0.25,
    halfSpreadBps: 0.6,
    levelStepBps: 1,
    levelUsd: 100_000,
    latencyMs: 35,
    offsetBps: 0.2,
    perpetual: true,
  },
  coinbase: {
    share: 0.2,
    halfSpreadBps: 0.8,
    levelStepBps: 1.5,
    levelUsd: 80_000,
    latencyMs: 45,
    offsetBps: 0.3,
    perpetual: false,
  },
  kraken: {
    share: 0.1,
    halfSpreadBps: 1.2,
    levelStepBps: 2,
    levelUsd: 40_000,
    latencyMs: 70,
    offsetBps: -0.3,
    perpetual: true,
  },
};

export const venueProfile = (venue: string): VenueProfile =>
  VENUE_PROFILES[venue] ?? {
    share: 0.1,
    halfSpreadBps: 1.5,
    levelStepBps: 2,
    levelUsd: 30_000,
    latencyMs: 60,
    offsetBps: 0,
    perpetual: false,
  };

const DAY = 86_400_000;
/** Day 0 of the model. */
const ANCHOR_MS = Date.UTC(2024, 0, 1);

/** 32-bit string hash (FNV-1a). */
export function hash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** The shared seedable PRNG (src/shared/random.ts). */
export const rng = mulberry32;

export function gaussian(next: () => number): () => number {
  let spare: number | undefined;
  return () => {
    if (spare !== undefined) {
      const s = spare;
      spare = undefined;
      return s;
    }
    let u = 0;
    while (u === 0) u = next();
    const v = next();
    const r = Math.sqrt(-2 * Math.log(u));
    spare = r * Math.sin(2 * Math.PI * v);
    return r * Math.cos(2 * Math.PI * v);
  };
}

/** Intraday activity: busier around 13:00-17:00 UTC (US/EU overlap), quieter 22:00-04:00. */
const SEASON = new Float64Array(1440).map((_, m) => 0.75 + 0.5 * Math.exp(-(((m / 60 - 15) / 4) ** 2)));
const SEASON_RMS = Math.sqrt(SEASON.reduce((s, x) => s + x * x, 0) / 1440);

export class PriceModel {
  private readonly dailyLog = new Map<string, number[]>();
  private readonly volRegime: number[] = [];
  private readonly dayCache = new Map<string, Float64Array>();
  private readonly profiles = new Map<string, SymbolProfile>();

  constructor(
    readonly seed: number,
    readonly symbols: readonly string[],
    /** A pure function of the symbol (universe.ts `profileOf`); asked once per symbol. */
    private readonly profileOf: (symbol: string) => SymbolProfile,
  ) {}

  /** The symbol's profile. */
  profile(symbol: string): SymbolProfile {
    let p = this.profiles.get(symbol);
    if (!p) {
      p = this.profileOf(symbol);
      this.profiles.set(symbol, p);
    }
    return p;
  }

  private regime(day: number): number {
    const r = this.volRegime;
    if (r.length === 0) r.push(0);
    while (r.length <= day) {
      const n = gaussian(rng(hash(`${this.seed}|regime|${r.length}`)))();
      r.push(0.85 * r[r.length - 1]! + 0.3 * n);
    }
    return Math.exp(r[day]!);
  }

  /** Log close of each day from day 0 (close of day d = open of day d+1). Index -1 ↔ anchor. */
  private dailyCloses(symbol: string, day: number): number[] {
    let closes = this.dailyLog.get(symbol);
    if (!closes) {
      closes = [];
      this.dailyLog.set(symbol, closes);
    }
    const p = this.profile(symbol);
    const anchor = Math.log(p.anchor);
    const kappa = Math.log(2) / 120;
    while (closes.length <= day) {
      const d = closes.length;
      const prev = d === 0 ? anchor : closes[d - 1]!;
      const m = gaussian(rng(hash(`${this.seed}|mkt|${d}`)))();
      const i = gaussian(rng(hash(`${this.seed}|${symbol}|${d}`)))();
      const vol = p.dailyVol * this.regime(d);
      const shock = vol * (p.beta * m + Math.sqrt(1 - p.beta * p.beta) * i);
      closes.push(prev + shock - kappa * (prev - anchor) - 0.5 * vol * vol);
    }
    return closes;
  }

  /** Log prices at each minute boundary of the day: 1441 points, [0] = day open, [1440] = day close. */
  dayPath(symbol: string, day: number): Float64Array {
    const key = `${symbol}|${day}`;
    const cached = this.dayCache.get(key);
    if (cached) return cached;
    const p = this.profile(symbol);
    const closes = this.dailyCloses(symbol, day);
    const open = day === 0 ? Math.log(p.anchor) : closes[day - 1]!;
    const close = closes[day]!;
    const vol = (p.dailyVol * this.regime(day)) / Math.sqrt(1440) / SEASON_RMS;
    const gm = gaussian(rng(hash(`${this.seed}|mkt-min|${day}`)));
    const gi = gaussian(rng(hash(`${this.seed}|${symbol}|min|${day}`)));
    const uj = rng(hash(`${this.seed}|${symbol}|jump|${day}`));
    const path = new Float64Array(1441);
    path[0] = open;
    const idio = Math.sqrt(1 - p.beta * p.beta);
    for (let m = 0; m < 1440; m++) {
      const sigma = vol * SEASON[m]!;
      let step = sigma * (p.beta * gm() + idio * gi());
      if (uj() < 1 / 2880) step += (uj() < 0.5 ? -1 : 1) * sigma * (4 + 8 * uj());
      path[m + 1] = path[m]! + step;
    }
    const drift = close - path[1440]!;
    for (let m = 1; m <= 1440; m++) path[m] = path[m]! + (drift * m) / 1440;
    if (this.dayCache.size > 512) this.dayCache.delete(this.dayCache.keys().next().value!);
    this.dayCache.set(key, path);
    return path;
  }

  /** The latent price at a minute boundary (ms aligned to a minute). */
  priceAtMinute(symbol: string, minuteMs: number): number {
    const day = Math.floor((minuteMs - ANCHOR_MS) / DAY);
    const m = Math.floor((minuteMs - ANCHOR_MS - day * DAY) / 60_000);
    return Math.exp(this.dayPath(symbol, Math.max(0, day))[m]!);
  }

  /** Per-minute volatility (fraction) at a time. */
  minuteVol(symbol: string, ms: number): number {
    const day = Math.max(0, Math.floor((ms - ANCHOR_MS) / DAY));
    const m = Math.floor((ms - ANCHOR_MS - day * DAY) / 60_000);
    return (
      ((this.profile(symbol).dailyVol * this.regime(day)) / Math.sqrt(1440) / SEASON_RMS) * (SEASON[m] ?? 1)
    );
  }

  /**
   * One venue's 1-minute candles for [fromMs, toMs) (minute aligned): the latent path with the venue's
   * offset and noise, intrabar extremes, and volume scaled by season and the size of the move.
   */
  venueCandles(symbol: string, venue: string, fromMs: number, toMs: number): Candle[] {
    const p = this.profile(symbol);
    const v = venueProfile(venue);
    const out: Candle[] = [];
    const start = Math.ceil(fromMs / 60_000) * 60_000;
    for (
      let dayStart = Math.floor((start - ANCHOR_MS) / DAY) * DAY + ANCHOR_MS;
      dayStart < toMs;
      dayStart += DAY
    ) {
      const day = Math.floor((dayStart - ANCHOR_MS) / DAY);
      if (day < 0) continue;
      const path = this.dayPath(symbol, day);
      const g = gaussian(rng(hash(`${this.seed}|${symbol}|${venue}|${day}`)));
      const vol = (p.dailyVol * this.regime(day)) / Math.sqrt(1440) / SEASON_RMS;
      const offset = v.offsetBps / 10_000;
      const quotePerMinute = (p.dailyQuoteVolume * v.share) / 1440;
      let prevClose: number | undefined;
      for (let m = 0; m < 1440; m++) {
        const t = dayStart + m * 60_000;
        const noise1 = g();
        const noise2 = g();
        const noise3 = g();
        const noise4 = g();
        if (t < start || t >= toMs) {
          prevClose = undefined;
          continue;
        }
        const sigma = vol * SEASON[m]!;
        const o = prevClose ?? Math.exp(path[m]!) * (1 + offset + 0.00003 * noise1);
        const c = Math.exp(path[m + 1]!) * (1 + offset + 0.00003 * noise2);
        const high = Math.max(o, c) * (1 + Math.abs(noise3) * 0.5 * sigma);
        const low = Math.min(o, c) * (1 - Math.abs(noise4) * 0.5 * sigma);
        const move = Math.abs(Math.log(c / o)) / sigma;
        const quote = quotePerMinute * SEASON[m]! * (0.6 + 0.4 * move) * Math.exp(0.25 * noise1 * noise3);
        const mid = (o + c + high + low) / 4;
        out.push({ openTime: t, open: o, high, low, close: c, volume: quote / mid, quoteVolume: quote });
        prevClose = c;
      }
    }
    return out;
  }
}
