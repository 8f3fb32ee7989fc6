import {
  HORIZONS,
  type ParameterChange,
  normalizeHorizon,
  normalizeSymbol,
  supportedSymbols,
} from '../../../modules/symbols/index.ts';
import { AppError } from '../../../shared/errors.ts';

/**
 * What one socket receives. A subscription is either everything (the default: every symbol and horizon,
 * including symbols added later) or an explicit set of (symbol, horizon) pairs. Pairs, not two independent
 * lists, so `subscribe BTC 1h` then `subscribe ETH 6h` never silently adds ETH 1h.
 *
 * Sockets with equal subscriptions share one `key`; the hub serializes one frame per key.
 */
export class Subscription {
  private pairs: Set<string> | null;
  /** True until the client (URL or message) chose something: the first `subscribe` then replaces. */
  private implicit: boolean;
  private cachedKey: string | undefined;

  private constructor(pairs: Set<string> | null, implicit: boolean) {
    this.pairs = pairs;
    this.implicit = implicit;
  }

  static everything(): Subscription {
    return new Subscription(null, true);
  }

  /** From the URL's `symbol` / `horizon` parameters; none given → everything. */
  static fromSelection(selection: Selection | null): Subscription {
    if (!selection) return Subscription.everything();
    const sub = new Subscription(new Set(), false);
    sub.add(selection);
    return sub;
  }

  get all(): boolean {
    return this.pairs === null;
  }

  /** Equal for equal subscriptions: the frame-sharing key. */
  get key(): string {
    if (this.cachedKey === undefined) this.cachedKey = this.pairs ? [...this.pairs].sort().join(',') : '*';
    return this.cachedKey;
  }

  /** A predicate for datapoints, for building this key's frame. */
  matcher(): (symbol: string, horizon: string) => boolean {
    const pairs = this.pairs;
    return pairs ? (symbol, horizon) => pairs.has(pairKey(symbol, horizon)) : () => true;
  }

  subscribe(selection: Selection): void {
    if (this.implicit) {
      this.pairs = new Set();
      this.implicit = false;
    }
    this.add(selection);
  }

  unsubscribe(selection: Selection): void {
    this.implicit = false;
    if (this.pairs === null) this.pairs = new Set(everyPair());
    for (const symbol of selection.symbols ?? supportedSymbols())
      for (const horizon of selection.horizons ?? HORIZONS) this.pairs.delete(pairKey(symbol, horizon));
    this.cachedKey = undefined;
  }

  /** The subscription as told to the client in acknowledgements. */
  describe(): { all: boolean; pairs: Array<{ symbol: string; horizon: string }> } {
    const keys = this.pairs ? [...this.pairs].sort() : everyPair();
    return {
      all: this.pairs === null,
      pairs: keys.map((k) => {
        const [symbol, horizon] = k.split('|') as [string, string];
        return { symbol, horizon };
      }),
    };
  }

  private add(selection: Selection): void {
    if (this.pairs === null) return;
    for (const symbol of selection.symbols ?? supportedSymbols())
      for (const horizon of selection.horizons ?? HORIZONS) this.pairs.add(pairKey(symbol, horizon));
    // Everything currently supported, chosen explicitly: the same as the default, sharing its frame.
    if (everyPair().every((k) => this.pairs!.has(k))) this.pairs = null;
    this.cachedKey = undefined;
  }
}

/** Normalized symbols and horizons; `undefined` means "all". */
export interface Selection {
  symbols?: string[];
  horizons?: string[];
}

const pairKey = (symbol: string, horizon: string) => `${symbol}|${horizon}`;
const everyPair = () => supportedSymbols().flatMap((s) => HORIZONS.map((h) => pairKey(s, h)));

/** At most this many entries in one list (URL or message): more is a validation error. */
const maxListLength = 64;

/**
 * Normalizes raw symbol and horizon lists exactly as REST does (src/modules/symbols): any accepted spelling →
 * canonical, an unsupported symbol → the default symbol and an unknown horizon → the nearest supported one,
 * each reported in `changes` (the handshake's `Meridian-Normalized` header, the acknowledgement's `changes`).
 * With `strict` (URL `strict=true`, or `"strict": true` in a message) an unsupported symbol is an error
 * instead. Throws AppError (400-class) naming the field by its URL parameter (`/query/symbols`,
 * `/query/horizons`): the handshake answers a problem document; a message's error frame carries only a code
 * and a message.
 */
export function normalizeSelection(
  rawSymbols: string[] | undefined,
  rawHorizons: string[] | undefined,
  changes: ParameterChange[],
  strict = false,
): Selection {
  const out: Selection = {};
  if (rawSymbols !== undefined) {
    if (rawSymbols.length > maxListLength)
      throw new AppError('validation_failed', `at most ${maxListLength} symbols`, {
        errors: [{ pointer: '/query/symbols', message: `at most ${maxListLength} entries` }],
      });
    out.symbols = [];
    for (const raw of rawSymbols) {
      const { symbol } = normalizeSymbol(raw, { strict, param: 'symbols' });
      if (symbol !== raw) changes.push({ param: 'symbol', requested: raw, used: symbol });
      if (!out.symbols.includes(symbol)) out.symbols.push(symbol);
    }
  }
  if (rawHorizons !== undefined) {
    if (rawHorizons.length > maxListLength)
      throw new AppError('validation_failed', `at most ${maxListLength} horizons`, {
        errors: [{ pointer: '/query/horizons', message: `at most ${maxListLength} entries` }],
      });
    out.horizons = [];
    for (const raw of rawHorizons) {
      const { value } = normalizeHorizon(raw, { param: 'horizons' });
      if (value !== raw) changes.push({ param: 'horizon', requested: raw, used: value });
      if (!out.horizons.includes(value)) out.horizons.push(value);
    }
  }
  return out;
}

/** `?symbol=BTCUSDT,eth&horizon=1h` (also repeated, also `symbols`/`horizons`) → raw lists or undefined. */
export function rawListsFromQuery(query: Record<string, unknown>): {
  symbols: string[] | undefined;
  horizons: string[] | undefined;
} {
  return {
    symbols: listParam(query.symbol, query.symbols),
    horizons: listParam(query.horizon, query.horizons),
  };
}

function listParam(...values: unknown[]): string[] | undefined {
  const out: string[] = [];
  for (const value of values) {
    for (const item of [value].flat()) {
      if (typeof item !== 'string') continue;
      for (const part of item.split(',')) if (part.trim() !== '') out.push(part.trim());
    }
  }
  // `?symbol=` (empty) is the same as no parameter: everything.
  return out.length > 0 ? out : undefined;
}
