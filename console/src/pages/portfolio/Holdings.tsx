import type { Holding, Portfolio as PortfolioBody } from '../../api/types.ts';
import { TableCard } from '../../components/TableCard.tsx';
import {
  formatAmount,
  formatDateTime,
  formatPercent,
  formatPrice,
  formatUsdAmount,
} from '../../lib/format.ts';
import { tone } from './tone.ts';

/** One row per asset: quantity, price, value, cost, P&L, allocation and the 24 h change. */
export function Holdings({
  portfolio,
  error,
  onRetry,
}: {
  portfolio: PortfolioBody | undefined;
  error: unknown;
  onRetry(): void;
}) {
  const columns = [
    'Asset',
    { label: 'Quantity', num: true },
    { label: 'Price', num: true },
    { label: 'Value', num: true },
    { label: 'Cost', num: true },
    { label: 'Unrealized P&L', num: true },
    { label: 'P&L %', num: true },
    { label: 'Allocation', num: true },
    { label: '24 h', num: true },
  ];
  return (
    <TableCard
      id="holdings-title"
      title="Holdings"
      columns={columns}
      items={portfolio?.holdings}
      row={(holding) => <HoldingRow key={holding.asset} holding={holding} />}
      empty="No holdings yet. Import a CSV below."
      error={error}
      onRetry={onRetry}
    />
  );
}

function HoldingRow({ holding: h }: { holding: Holding }) {
  const unpriced = h.price === null;
  return (
    <tr data-asset={h.asset}>
      <th scope="row">
        {h.asset}
        <span className="muted small"> · {h.rows === 1 ? '1 lot' : `${h.rows} lots`}</span>
      </th>
      <td className="num">{formatAmount(h.quantity)}</td>
      <td className="num" title={h.priceAsOf ? `as of ${formatDateTime(h.priceAsOf)}` : undefined}>
        {unpriced ? <span className="badge warn plain">no price</span> : formatPrice(h.price)}
      </td>
      <td className="num">{formatUsdAmount(h.valueUsd)}</td>
      <td className="num" title={h.costBasisUsd === null ? 'Some lots have no cost basis' : undefined}>
        {formatUsdAmount(h.costBasisUsd)}
      </td>
      <td className={`num ${tone(h.unrealizedPnlUsd) ?? ''}`}>
        {formatUsdAmount(h.unrealizedPnlUsd, { signed: true })}
      </td>
      <td className={`num ${tone(h.unrealizedPnlPct) ?? ''}`}>{formatPercent(h.unrealizedPnlPct)}</td>
      <td className="num">
        {h.allocationPct === null ? (
          '—'
        ) : (
          <span className="allocation">
            <span className="allocation-bar" aria-hidden="true">
              <span style={{ width: `${Math.min(100, Math.max(0, h.allocationPct))}%` }} />
            </span>
            {formatPercent(h.allocationPct, 1, false)}
          </span>
        )}
      </td>
      <td className={`num ${tone(h.change24hPct) ?? ''}`}>{formatPercent(h.change24hPct)}</td>
    </tr>
  );
}
