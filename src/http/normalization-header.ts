import type { ParameterChange } from '../modules/symbols/index.ts';

/** The response header listing every parameter the server changed, requested → used. */
export const NORMALIZATION_HEADER = 'Meridian-Normalized';

/** Keeps header values safe: printable ASCII only, no `;` or `,` splitting entries, bounded length. */
function headerSafe(text: string): string {
  const cut = text.length > 64 ? `${text.slice(0, 64)}…` : text;
  return cut.replace(/[^\x21-\x2b\x2d-\x3a\x3c-\x7e]/g, (c) =>
    [...new TextEncoder().encode(c)].map((b) => `%${b.toString(16).toUpperCase().padStart(2, '0')}`).join(''),
  );
}

/**
 * Formats the header value, e.g. `symbol=btc-usd->BTCUSDT; horizon=2h->1h`. An absent parameter that got a
 * default is not listed (nothing was requested). Returns `undefined` when nothing changed.
 */
export function normalizationHeaderValue(changes: readonly ParameterChange[]): string | undefined {
  const parts: string[] = [];
  for (const change of changes) {
    if (change.requested === undefined || change.requested === change.used) continue;
    parts.push(`${change.param}=${headerSafe(change.requested)}->${change.used}`);
  }
  return parts.length ? parts.join('; ') : undefined;
}

/**
 * Collects normalizations during a request, then sets the header once:
 * `const n = new NormalizationLog(); n.add('symbol', q.symbol, s.symbol); n.apply(reply)`.
 */
export class NormalizationLog {
  readonly changes: ParameterChange[] = [];

  add(param: string, requested: string | undefined, used: string): this {
    this.changes.push({ param, requested, used });
    return this;
  }

  value(): string | undefined {
    return normalizationHeaderValue(this.changes);
  }

  /** Sets the header on a Fastify reply (or anything with `header(name, value)`) when something changed. */
  apply(reply: { header(name: string, value: string): unknown }): void {
    const value = this.value();
    if (value !== undefined) reply.header(NORMALIZATION_HEADER, value);
  }
}
