import type { Portfolio as PortfolioBody } from '../../api/types.ts';
import { Skeleton } from '../../components/Skeleton.tsx';
import { formatPercent, formatUsdAmount } from '../../lib/format.ts';
import { tone } from './tone.ts';

/** The four headline figures (value, cost, unrealized P&L, 24 h change) and what they leave out. */
export function Totals({ portfolio }: { portfolio: PortfolioBody | undefined }) {
  const totals = portfolio?.totals;
  const figures = [
    { label: 'Value', value: totals && formatUsdAmount(totals.valueUsd), note: 'priced holdings' },
    { label: 'Cost basis', value: totals && formatUsdAmount(totals.costBasisUsd), note: 'with a full cost' },
    {
      label: 'Unrealized P&L',
      value: totals && formatUsdAmount(totals.unrealizedPnlUsd, { signed: true }),
      note: totals && formatPercent(totals.unrealizedPnlPct),
      tone: tone(totals?.unrealizedPnlUsd),
    },
    {
      label: '24 h change',
      value: totals && formatUsdAmount(totals.change24hUsd, { signed: true }),
      note: totals && formatPercent(totals.change24hPct),
      tone: tone(totals?.change24hUsd),
    },
  ];
  return (
    <section className="grid stats" aria-label="Portfolio totals">
      {figures.map((figure) => (
        <div key={figure.label} className="card stat">
          <span className="stat-label">{figure.label}</span>
          {figure.value ? (
            <span className={`stat-value ${figure.tone ?? ''}`}>{figure.value}</span>
          ) : (
            <Skeleton height={30} width="70%" />
          )}
          <span className={`small ${figure.tone ?? 'muted'}`}>{figure.note ?? '\u00a0'}</span>
        </div>
      ))}
      {totals && (totals.unpricedAssets.length > 0 || totals.assetsWithoutCost.length > 0) ? (
        <p className="notice stat wide">
          {totals.unpricedAssets.length > 0
            ? `No market price for ${totals.unpricedAssets.join(', ')}: held but not counted in the value (never as $0). `
            : ''}
          {totals.assetsWithoutCost.length > 0
            ? `No full cost basis for ${totals.assetsWithoutCost.join(', ')}: left out of cost and P&L.`
            : ''}
        </p>
      ) : null}
    </section>
  );
}
