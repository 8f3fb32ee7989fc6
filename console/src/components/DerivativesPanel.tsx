import { useQuery } from '@tanstack/react-query';
import { api, unwrap } from '../api/client.ts';
import { formatPercent, formatUsd } from '../lib/format.ts';
import { type SparkPoint, seriesOf, sparklinePoints } from '../lib/derivatives.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { Skeleton } from './Skeleton.tsx';

const DAY = 86_400_000;
type Metric = 'funding' | 'open_interest' | 'liquidations';

function useDerivativesHistory(symbol: string, metric: Metric, days: number) {
  return useQuery({
    queryKey: ['derivatives-history', symbol, metric],
    queryFn: () =>
      unwrap(
        api.GET('/api/derivatives/history', {
          params: {
            query: { symbol, metric, interval: '1h', from: String(Date.now() - days * DAY), limit: 1000 },
          },
        }),
      ),
    refetchInterval: 300_000,
  });
}

/**
 * Funding, open interest and liquidations of the symbol's perpetuals under the price chart: the figure now
 * and a sparkline of its recent history. A metric the source does not publish reads "not published" (never
 * 0); simulated data is labelled.
 */
export function DerivativesPanel({ symbol }: { symbol: string }) {
  const now = useQuery({
    queryKey: ['derivatives', symbol],
    queryFn: () => unwrap(api.GET('/api/derivatives', { params: { query: { symbols: symbol } } })),
    refetchInterval: 60_000,
  });
  const funding = useDerivativesHistory(symbol, 'funding', 7);
  const openInterest = useDerivativesHistory(symbol, 'open_interest', 2);
  const liquidations = useDerivativesHistory(symbol, 'liquidations', 2);
  const item = now.data?.data.find((d) => d.symbol === symbol);

  return (
    <section className="card" aria-labelledby="derivatives-title" data-testid="derivatives-panel">
      <header className="card-header wrap">
        <h2 id="derivatives-title">Perpetual futures</h2>
        <div>
          {now.data?.simulated ? <span className="badge warn">Simulated</span> : null}
          {now.data?.stale || item?.stale ? <span className="badge warn">Stale</span> : null}
        </div>
      </header>
      {now.isError ? <ErrorNote error={now.error} onRetry={() => now.refetch()} /> : null}
      {now.isPending ? (
        <Skeleton height={96} />
      ) : !item ? (
        <p className="muted" data-testid="derivatives-absent">
          No perpetual-futures data for this symbol from {now.data?.source ?? 'this source'}.
        </p>
      ) : (
        <div className="grid stats derivatives">
          <Metric
            testId="funding"
            label="Funding (annualized)"
            value={item.funding ? formatPercent(item.funding.annualizedPct) : undefined}
            note={
              item.funding
                ? `${(item.funding.rate * 100).toFixed(4)} % per ${item.funding.intervalHours} h`
                : undefined
            }
            series={seriesOf(funding.data?.data, (p) => p.annualizedPct)}
            span="7 days of settlements"
          />
          <Metric
            testId="open-interest"
            label="Open interest"
            value={item.openInterest?.usd != null ? formatUsd(item.openInterest.usd) : undefined}
            note={
              item.openInterest?.change24hPct != null
                ? `${formatPercent(item.openInterest.change24hPct)} 24 h`
                : undefined
            }
            series={seriesOf(openInterest.data?.data, (p) => p.openInterestUsd)}
            span="48 hours, hourly"
          />
          <Metric
            testId="liquidations"
            label="Liquidations 24 h"
            value={
              item.liquidations
                ? formatUsd(item.liquidations.h24.longUsd + item.liquidations.h24.shortUsd)
                : undefined
            }
            note={
              item.liquidations
                ? `longs ${formatUsd(item.liquidations.h24.longUsd)} · shorts ${formatUsd(item.liquidations.h24.shortUsd)}`
                : undefined
            }
            series={
              item.liquidations
                ? seriesOf(liquidations.data?.data, (p) => (p.longUsd ?? 0) + (p.shortUsd ?? 0))
                : []
            }
            span="48 hours, per hour with any"
          />
        </div>
      )}
    </section>
  );
}

function Metric(props: {
  testId: string;
  label: string;
  /** Undefined: the source does not publish it for this symbol. */
  value: string | undefined;
  note: string | undefined;
  series: SparkPoint[];
  span: string;
}) {
  const points = sparklinePoints(props.series, 160, 36);
  return (
    <div className="stat" data-testid={`derivatives-${props.testId}`}>
      <span className="stat-label">{props.label}</span>
      {props.value === undefined ? (
        <span className="muted" data-absent="true">
          Not published by this source
        </span>
      ) : (
        <>
          <span className="stat-value">{props.value}</span>
          {props.note ? <span className="muted small">{props.note}</span> : null}
          {points ? (
            <svg
              className="sparkline"
              viewBox="0 -2 160 40"
              role="img"
              aria-label={`${props.label}, ${props.span}`}
            >
              <polyline points={points} fill="none" stroke="currentColor" strokeWidth="1.5" />
            </svg>
          ) : (
            <span className="muted small">No history yet</span>
          )}
        </>
      )}
    </div>
  );
}
