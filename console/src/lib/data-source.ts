/** What kind of data an API path answers with, as far as its provenance (`Meridian-Source`) goes. */
export type DataKind = 'market' | 'onchain';

/** Market data and forecasts share the market's source; on-chain flows have their own. */
export function dataKindOf(path: string): DataKind | undefined {
  if (path.startsWith('/api/market-') || path.startsWith('/api/predictions')) return 'market';
  if (path.startsWith('/api/onchain/')) return 'onchain';
  return undefined;
}

const words: Record<DataKind, Record<string, string>> = {
  market: {
    simulated:
      'Simulated data: prices, order books and forecasts on this page come from Meridian’s built-in simulator, not from an exchange.',
    replay: 'Replayed data: prices on this page come from a recording played back, not from live exchanges.',
  },
  onchain: {
    simulated:
      'Simulated data: the transfers on this page come from Meridian’s built-in simulator, not from a blockchain.',
  },
};

/** The sentence a page shows for a source that is not live data; undefined for live sources. */
export function sourceNotice(kind: DataKind, source: string | undefined): string | undefined {
  return source ? words[kind][source] : undefined;
}
