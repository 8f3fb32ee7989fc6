import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { Link, useParams, useSearchParams } from 'react-router';
import type { Datapoint, Horizon } from '../api/types.ts';
import { DerivativesPanel } from '../components/DerivativesPanel.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { FactorBars } from '../components/FactorBars.tsx';
import { LiveBadge } from '../components/LiveBadge.tsx';
import { OutlookCard } from '../components/OutlookWidget.tsx';
import { PriceChart } from '../components/PriceChart.tsx';
import { Segmented } from '../components/Segmented.tsx';
import { Skeleton } from '../components/Skeleton.tsx';
import { TrackRecord } from '../components/TrackRecord.tsx';
import { useCandles, useForecasts, useMarketData } from '../hooks/queries.ts';
import { usePredictionStream } from '../hooks/usePredictionStream.ts';
import { formatDateTime, formatPercent, formatPrice, formatRatio, formatSymbol } from '../lib/format.ts';
import { forecastPath, mergeDatapoints } from '../lib/forecast.ts';
import { TableHead } from '../components/TableHead.tsx';
import { SourcedBody } from '../components/SourceNotice.tsx';

const intervals = ['1m', '5m', '15m', '1h', '4h', '1d'] as const;
const intervalSeconds: Record<string, number> = {
  '1m': 60,
  '5m': 300,
  '15m': 900,
  '1h': 3600,
  '4h': 14_400,
  '1d': 86_400,
};
const horizons: Horizon[] = ['15m', '1h', '6h'];

export default function SymbolPage() {
  const { symbol = 'BTCUSDT' } = useParams();
  const [params, setParams] = useSearchParams();
  const interval = params.get('interval') ?? '15m';
  const horizon: Horizon = horizons.find((h) => h === params.get('horizon')) ?? '1h';
  const set = (key: string, value: string) =>
    setParams(
      (p) => {
        p.set(key, value);
        return p;
      },
      { replace: true },
    );

  const market = useMarketData({ refreshMs: 10_000 });
  const candles = useCandles(symbol, interval);
  const forecasts = useForecasts(symbol, horizon);
  const queryClient = useQueryClient();
  const [live, setLive] = useState<Datapoint[]>([]);
  const onData = useCallback(
    (points: Datapoint[]) => {
      const mine = points.filter((p) => p.symbol === symbol && p.horizon === horizon);
      if (mine.length) setLive((previous) => [...previous, ...mine]);
      queryClient.invalidateQueries({ queryKey: ['outlook', symbol] });
      queryClient.invalidateQueries({ queryKey: ['performance'] });
    },
    [symbol, horizon, queryClient],
  );
  const stream = usePredictionStream({ symbols: [symbol], horizon, onData });
  const datapoints = useMemo(() => mergeDatapoints(forecasts.data ?? [], live), [forecasts.data, live]);
  const path = useMemo(() => forecastPath(datapoints), [datapoints]);
  const latest = datapoints.at(-1);
  const item = market.data?.find((m) => m.symbol === candles.data?.symbol || m.symbol === symbol);
  const shownSymbol = candles.data?.symbol ?? symbol;

  return (
    <div className="page">
      <nav aria-label="Symbols" className="symbol-tabs">
        {(market.data ?? []).map((m) => (
          <Link
            key={m.symbol}
            to={`/symbols/${m.symbol}`}
            aria-current={m.symbol === shownSymbol ? 'page' : undefined}
          >
            {m.symbol.replace(/USDT$/, '')}
          </Link>
        ))}
      </nav>
      <div className="page-title">
        <div>
          <h1>{formatSymbol(shownSymbol)}</h1>
          <p className="price-line">
            <span className="big">
              {item ? formatPrice(item.price) : <Skeleton width={140} height={28} />}
            </span>
            {item ? (
              <span className={(item.change24hPct ?? 0) >= 0 ? 'up' : 'down'}>
                {formatPercent(item.change24hPct)} 24 h
              </span>
            ) : null}
          </p>
        </div>
        <LiveBadge state={stream.state} lastAt={stream.lastAt} />
      </div>
      <SourcedBody kind="market" failed={market.isError && candles.isError}>
        <section className="card" aria-labelledby="chart-title">
          <header className="card-header wrap">
            <h2 id="chart-title">Price and forecast</h2>
            <div className="controls">
              <Segmented
                label="Candle interval"
                options={intervals}
                value={interval}
                onChange={(v) => set('interval', v)}
              />
              <Segmented
                label="Forecast horizon"
                options={horizons}
                value={horizon}
                onChange={(v) => set('horizon', v)}
              />
            </div>
          </header>
          {candles.isError ? <ErrorNote error={candles.error} onRetry={() => candles.refetch()} /> : null}
          {forecasts.isError ? (
            <ErrorNote error={forecasts.error} onRetry={() => forecasts.refetch()} />
          ) : null}
          <div className="chart-frame" aria-busy={candles.isPending}>
            {candles.isPending ? <Skeleton height="100%" /> : null}
            <PriceChart
              candles={candles.data?.data ?? []}
              forecast={path}
              intervalSeconds={intervalSeconds[candles.data?.interval ?? interval] ?? 900}
              label={`${formatSymbol(shownSymbol)} ${interval} candles with the ${horizon} forecast median and its 80 % and 90 % bands`}
            />
          </div>
          <ul className="legend" aria-label="Legend">
            <li>
              <span className="swatch median" /> Forecast median ({horizon} ahead)
            </li>
            <li>
              <span className="swatch band80" /> 80 % band
            </li>
            <li>
              <span className="swatch band90" /> 90 % band
            </li>
            <li className="muted" data-testid="forecast-count">
              {path.length} forecasts · latest {latest ? formatDateTime(latest.generatedAt) : '—'}
              {live.length ? ` · ${live.length} live` : ''}
            </li>
          </ul>
        </section>

        <DerivativesPanel symbol={shownSymbol} />

        <div className="grid two">
          <OutlookCard symbol={shownSymbol} />
          <section className="card" aria-labelledby="factors-title">
            <header className="card-header">
              <h2 id="factors-title">What drives the latest forecast</h2>
            </header>
            {latest ? (
              <>
                <FactorBars factors={latest.factors} />
                <p className="muted small">
                  Median {formatPrice(latest.prediction)} vs {formatPrice(latest.baseline)} now (
                  {formatPercent(latest.expectedMovePct)}), confidence {formatRatio(latest.confidence, 0)},
                  made {formatDateTime(latest.generatedAt)}.
                </p>
              </>
            ) : (
              <Skeleton height={140} />
            )}
          </section>
        </div>

        <RecentForecasts datapoints={datapoints} />
        <TrackRecord symbol={shownSymbol} horizon={horizon} />
      </SourcedBody>
    </div>
  );
}

/**
 * Past forecasts against what the price did, from the same stored record as the track record: those made
 * after the fact (backfilled from stored candles) are marked, as the track record leaves them out.
 */
export function RecentForecasts({ datapoints }: { datapoints: Datapoint[] }) {
  const scored = datapoints
    .filter((p) => p.outcome)
    .slice(-8)
    .reverse();
  return (
    <section className="card flush" aria-labelledby="recent-title">
      <header className="card-header">
        <h2 id="recent-title">Past forecasts vs realized</h2>
        {scored.some((p) => p.backfilled) ? (
          <span className="muted small">
            Backfilled: made after the fact from stored candles; the track record counts live forecasts only
          </span>
        ) : null}
      </header>
      <div className="table-scroll">
        <table className="data">
          <TableHead
            columns={[
              'Made',
              { label: 'Forecast', num: true },
              { label: 'Realized', num: true },
              { label: 'Error', num: true },
              'Direction',
            ]}
          />
          <tbody>
            {scored.length === 0 ? (
              <tr>
                <td colSpan={5} className="muted">
                  No forecast has reached its horizon yet.
                </td>
              </tr>
            ) : (
              scored.map((p) => (
                <tr key={p.generatedAt}>
                  <td>
                    {formatDateTime(p.generatedAt)}
                    {p.backfilled ? <span className="badge plain">backfilled</span> : null}
                  </td>
                  <td className="num">{formatPrice(p.prediction)}</td>
                  <td className="num">{formatPrice(p.outcome!.realized)}</td>
                  <td className="num">
                    {formatPercent((100 * (p.prediction - p.outcome!.realized)) / p.outcome!.realized)}
                  </td>
                  <td>
                    <span className={`badge ${p.outcome!.hit ? 'ok' : 'warn'}`}>
                      {p.outcome!.hit ? 'Hit' : 'Miss'}
                    </span>
                  </td>
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </section>
  );
}
