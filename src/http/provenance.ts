import type { MarketRuntime } from '../modules/market/index.ts';

/** Where an answer's data comes from, its own time, and whether that is too old now. */
export interface Provenance {
  source: string;
  asOf: number | null;
  stale: boolean;
}

/**
 * The market's provenance, shared by `/api/market-data`, `/api/market-history` and the `/market` stream: the
 * newest update any venue gave, on the data's own clock (on an API replica, from the adopted copy), stale when
 * that is older than the staleness window now — which is how a dead feed, or a stopped worker on a replica,
 * shows.
 */
export function marketProvenance(
  market: Pick<MarketRuntime, 'asOf' | 'now' | 'staleMs'>,
  source: string,
): () => Provenance {
  return () => {
    // The newest update any venue gave (a snapshot is recomputed on every tick, data or not).
    const asOf = market.asOf();
    return { source, asOf, stale: asOf === null || market.now() - asOf > market.staleMs };
  };
}

/**
 * Provenance headers: where an answer's data comes from (`Meridian-Source`), its own time (`Meridian-As-Of`)
 * and whether that is too old at the moment of the answer (`Meridian-Stale`) — computed per answer, never
 * stored with the bytes. The time's text is kept until the time changes (once per refresh).
 */
export function provenanceHeaderSource(read: () => Provenance) {
  let asOfMs: number | null = null;
  let asOfText = '';
  return (): Array<[string, string]> => {
    const p = read();
    const headers: Array<[string, string]> = [
      ['meridian-source', p.source],
      ['meridian-stale', p.stale ? 'true' : 'false'],
    ];
    if (p.asOf !== null) {
      if (p.asOf !== asOfMs) {
        asOfMs = p.asOf;
        asOfText = new Date(p.asOf).toISOString();
      }
      headers.push(['meridian-as-of', asOfText]);
    }
    return headers;
  };
}

/** The same headers for a provenance read once (answers that look it up per request, e.g. on-chain flows). */
export function provenanceHeaders(p: Provenance): Array<[string, string]> {
  const headers: Array<[string, string]> = [
    ['meridian-source', p.source],
    ['meridian-stale', p.stale ? 'true' : 'false'],
  ];
  if (p.asOf !== null) headers.push(['meridian-as-of', new Date(p.asOf).toISOString()]);
  return headers;
}
