import { useEffect } from 'react';
import { Link } from 'react-router';
import type { Datapoint, MarketItem } from '../api/types.ts';
import type { StreamState } from '../hooks/usePush.ts';
import { formatBps, formatPercent, formatPrice, formatSymbol, formatUsd } from '../lib/format.ts';
import { depthWithin, venueCounts } from '../lib/market.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { SkeletonRows } from './Skeleton.tsx';
import { TableHead } from './TableHead.tsx';

interface Props {
  items: MarketItem[] | undefined;
  error: unknown;
  forecasts: Map<string, Datapoint>;
  /** The market push channel's state; the table is polled while it is not open. */
  feed: StreamState;
  onRetry(): void;
}

const feedWords: Record<StreamState, string> = {
  open: 'live updates',
  connecting: 'connecting…',
  closed: 'live channel down, refreshing every 5 s',
  ended: 'live channel ended, refreshing every 5 s',
};

/** Live market aggregates, one row per symbol, with the latest 1 h forecast from the push channel. */
export function MarketTable({ items, error, forecasts, feed, onRetry }: Props) {
  useEffect(() => {
    // The dashboard's first meaningful paint: the market table has data (read by `npm run bench -- console`).
    if (items?.length && !performance.getEntriesByName('meridian:dashboard-data').length)
      performance.mark('meridian:dashboard-data');
  }, [items]);
  const notional = items?.[0]?.liquidity.slippage.notional;
  return (
    <section className="card flush" aria-labelledby="markets-title">
      <header className="card-header">
        <h2 id="markets-title">Markets</h2>
        <span className="muted small">
          Merged across venues · slippage for {notional ? formatUsd(notional) : 'the default notional'} ·{' '}
          <span data-testid="market-feed" data-state={feed}>
            {feedWords[feed]}
          </span>
        </span>
      </header>
      {error && !items ? <ErrorNote error={error} onRetry={onRetry} /> : null}
      <div className="table-scroll">
        <table className="data market-table">
          <TableHead
            columns={[
              'Symbol',
              { label: 'Price', num: true },
              { label: '24 h', num: true },
              { label: 'Depth ±1 %', num: true },
              { label: 'Slippage buy / sell', num: true },
              'Venues',
              { label: '1 h forecast', num: true },
            ]}
          />
          <tbody aria-live="off">
            {items ? (
              items.map((item) => (
                <MarketRow key={item.symbol} item={item} forecast={forecasts.get(item.symbol)} />
              ))
            ) : (
              <SkeletonRows rows={7} columns={7} />
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}

function MarketRow({ item, forecast }: { item: MarketItem; forecast: Datapoint | undefined }) {
  // From the push channel only (no request per row): empty until the model's next refresh arrives.
  const move = forecast?.expectedMovePct ?? null;
  const depth = depthWithin(item, 1);
  const venues = venueCounts(item);
  const change = item.change24hPct;
  return (
    <tr data-symbol={item.symbol}>
      <th scope="row">
        <Link to={`/symbols/${item.symbol}`}>{formatSymbol(item.symbol)}</Link>
      </th>
      <td className="num strong">{formatPrice(item.price)}</td>
      <td className={`num ${change === null ? '' : change >= 0 ? 'up' : 'down'}`}>{formatPercent(change)}</td>
      <td className="num">{depth === null ? '—' : formatUsd(depth)}</td>
      <td className="num">
        {formatBps(item.liquidity.slippage.buyBps)} / {formatBps(item.liquidity.slippage.sellBps)}
      </td>
      <td>
        <span className="venues" title={venues.title}>
          {venues.used} used
          {venues.stale ? <span className="badge warn">{venues.stale} stale</span> : null}
          {venues.outlier ? <span className="badge warn">{venues.outlier} outlier</span> : null}
        </span>
      </td>
      <td
        className={`num ${move === null ? '' : move >= 0 ? 'up' : 'down'}`}
        title={move === null ? 'Shown from the next model refresh' : undefined}
      >
        {formatPercent(move)}
      </td>
    </tr>
  );
}
