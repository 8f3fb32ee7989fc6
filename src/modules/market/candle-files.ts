import { readFile, readdir } from 'node:fs/promises';
import { basename, join } from 'node:path';
import { canonicalCandidate, type Interval, INTERVAL_MS, isInterval } from '../identifiers/index.ts';
import { type Candle, estimateQuoteVolume } from './candles.ts';

/**
 * Readers of recorded candle files. Two formats:
 * - freqtrade JSON: `[[openTimeMs, open, high, low, close, volumeBase], ...]`, oldest first;
 * - CSV with the header `timestamp,open,high,low,close,volume` (optionally `,quote_volume`), timestamp in
 *   ms since the epoch, seconds (values below 10^11) or ISO 8601.
 * Output is sorted oldest first with duplicate open times removed (the later row wins). Gaps are kept.
 */
export class CandleFileError extends Error {
  constructor(
    readonly file: string,
    message: string,
  ) {
    super(`${file}: ${message}`);
    this.name = 'CandleFileError';
  }
}

const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);

export function parseFreqtradeJson(text: string, file = 'candles.json'): Candle[] {
  let rows: unknown;
  try {
    rows = JSON.parse(text);
  } catch (error) {
    throw new CandleFileError(file, `not JSON (${(error as Error).message})`);
  }
  if (!Array.isArray(rows))
    throw new CandleFileError(file, 'expected an array of [time, o, h, l, c, v] rows');
  const out: Candle[] = new Array(rows.length);
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as unknown[];
    if (!Array.isArray(r) || r.length < 6 || !r.slice(0, 6).every(finite)) {
      throw new CandleFileError(file, `row ${i} is not [time, open, high, low, close, volume]`);
    }
    const [t, o, h, l, c, v] = r as number[];
    const q = finite(r[6]) ? (r[6] as number) : estimateQuoteVolume(o!, h!, l!, c!, v!);
    out[i] = { openTime: t!, open: o!, high: h!, low: l!, close: c!, volume: v!, quoteVolume: q };
  }
  return sortAndDedupe(out);
}

function parseTimestamp(raw: string): number | undefined {
  const text = raw.trim();
  if (/^\d+(\.\d+)?$/.test(text)) {
    const n = Number(text);
    return n < 1e11 ? Math.round(n * 1000) : Math.round(n);
  }
  const ms = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(text) ? text : `${text}Z`);
  return Number.isFinite(ms) ? ms : undefined;
}

export function parseCandleCsv(text: string, file = 'candles.csv'): Candle[] {
  const lines = text.split(/\r?\n/);
  const header = (lines[0] ?? '')
    .replace(/^\uFEFF/, '')
    .split(',')
    .map((h) => h.trim().toLowerCase());
  const col = (name: string) => header.indexOf(name);
  const idx = {
    t: col('timestamp') >= 0 ? col('timestamp') : col('date'),
    o: col('open'),
    h: col('high'),
    l: col('low'),
    c: col('close'),
    v: col('volume'),
    q: col('quote_volume'),
  };
  if (idx.t < 0 || idx.o < 0 || idx.h < 0 || idx.l < 0 || idx.c < 0 || idx.v < 0) {
    throw new CandleFileError(file, 'the header must be timestamp,open,high,low,close,volume');
  }
  const out: Candle[] = [];
  for (let i = 1; i < lines.length; i++) {
    const line = lines[i]!;
    if (line.trim() === '') continue;
    const cells = line.split(',');
    const openTime = parseTimestamp(cells[idx.t] ?? '');
    const nums = [idx.o, idx.h, idx.l, idx.c, idx.v].map((j) => Number(cells[j]));
    if (openTime === undefined || !nums.every(Number.isFinite)) {
      throw new CandleFileError(file, `line ${i + 1} is not a valid candle: ${line.slice(0, 80)}`);
    }
    const [o, h, l, c, v] = nums as [number, number, number, number, number];
    const qRaw = idx.q >= 0 ? Number(cells[idx.q]) : Number.NaN;
    out.push({
      openTime,
      open: o,
      high: h,
      low: l,
      close: c,
      volume: v,
      quoteVolume: Number.isFinite(qRaw) ? qRaw : estimateQuoteVolume(o, h, l, c, v),
    });
  }
  return sortAndDedupe(out);
}

function sortAndDedupe(candles: Candle[]): Candle[] {
  let sorted = true;
  for (let i = 1; i < candles.length; i++) {
    if (candles[i]!.openTime <= candles[i - 1]!.openTime) {
      sorted = false;
      break;
    }
  }
  if (sorted) return candles;
  const byTime = new Map<number, Candle>();
  for (const c of candles) byTime.set(c.openTime, c);
  return [...byTime.values()].sort((a, b) => a.openTime - b.openTime);
}

/** Reads a `.json` (freqtrade) or `.csv` candle file. */
export async function readCandleFile(path: string): Promise<Candle[]> {
  const text = await readFile(path, 'utf8');
  return path.toLowerCase().endsWith('.csv') ? parseCandleCsv(text, path) : parseFreqtradeJson(text, path);
}

export interface CandleFileInfo {
  path: string;
  /** Canonical symbol, e.g. BTCUSDT. */
  symbol: string;
  interval: Interval;
  /** `futures` for freqtrade's `-futures` files, else `spot`. */
  market: 'spot' | 'futures';
}

/**
 * Understands freqtrade names (`BTC_USDT-5m.json`, `BTC_USDT_USDT-5m-futures.json`) and plain ones
 * (`BTCUSDT-1m.csv`, `btc-usdt_1h.csv`). Returns undefined for other files (funding, mark, …).
 */
export function parseCandleFileName(path: string): CandleFileInfo | undefined {
  const name = basename(path);
  const m = /^(.+?)[-_](1m|5m|15m|1h|4h|1d)(-futures)?\.(json|csv)$/i.exec(name);
  if (!m) return undefined;
  const interval = m[2]!.toLowerCase();
  if (!isInterval(interval)) return undefined;
  // freqtrade futures pairs carry the settlement currency: BTC_USDT_USDT.
  const pair = m[1]!.replace(/^([A-Za-z0-9]+)_([A-Za-z0-9]+)_\2$/, '$1_$2');
  const symbol = canonicalCandidate(pair);
  if (!symbol) return undefined;
  return { path, symbol, interval, market: m[3] ? 'futures' : 'spot' };
}

/** Candle files in a folder, finest interval first per symbol. */
export async function listCandleFiles(folder: string): Promise<CandleFileInfo[]> {
  const names = await readdir(folder);
  return names
    .map((n) => parseCandleFileName(join(folder, n)))
    .filter((x): x is CandleFileInfo => x !== undefined)
    .sort((a, b) => a.symbol.localeCompare(b.symbol) || INTERVAL_MS[a.interval] - INTERVAL_MS[b.interval]);
}

export interface FundingPoint {
  time: number;
  /** Funding rate as a fraction (0.0001 = 0.01 %). */
  rate: number;
}

/** freqtrade funding-rate files: `[[timeMs, rate, 0, 0, 0, 0], ...]`. */
export async function readFundingFile(path: string): Promise<FundingPoint[]> {
  const rows = JSON.parse(await readFile(path, 'utf8')) as unknown;
  if (!Array.isArray(rows)) throw new CandleFileError(path, 'expected an array of [time, rate, ...] rows');
  return rows
    .filter((r): r is number[] => Array.isArray(r) && finite(r[0]) && finite(r[1]))
    .map((r) => ({ time: r[0]!, rate: r[1]! }))
    .sort((a, b) => a.time - b.time);
}

export interface OpenInterestRecord {
  time: number;
  /** Open interest in USD (quote currency). */
  usd: number;
  /** In contracts (base units), when recorded. */
  contracts: number | null;
}

/**
 * Open-interest files in the funding files' row form: `[[timeMs, openInterestUsd, openInterestContracts?, …], …]`
 * (named `*-open_interest.json`, e.g. `BTC_USDT_USDT-1h-open_interest.json`).
 */
export async function readOpenInterestFile(path: string): Promise<OpenInterestRecord[]> {
  const rows = JSON.parse(await readFile(path, 'utf8')) as unknown;
  if (!Array.isArray(rows))
    throw new CandleFileError(path, 'expected an array of [time, openInterestUsd, contracts?] rows');
  return rows
    .filter((r): r is number[] => Array.isArray(r) && finite(r[0]) && finite(r[1]) && r[1] > 0)
    .map((r) => ({ time: r[0]!, usd: r[1]!, contracts: finite(r[2]) ? r[2] : null }))
    .sort((a, b) => a.time - b.time);
}
