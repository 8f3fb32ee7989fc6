import { useQueryClient } from '@tanstack/react-query';
import { useCallback, useState } from 'react';
import type { Account, Datapoint } from '../api/types.ts';
import { AnalyticsPanel } from '../components/AnalyticsPanel.tsx';
import { MarketTable } from '../components/MarketTable.tsx';
import { MAX_OUTLOOK_SYMBOLS } from '@meridian/client';
import { OutlookEntryCard, OutlookSkeleton } from '../components/OutlookWidget.tsx';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { LiveBadge } from '../components/LiveBadge.tsx';
import { marketDataKey, useAccount, useMarketData, useOutlooks } from '../hooks/queries.ts';
import { useMarketStream } from '../hooks/useMarketStream.ts';
import { useUsage } from '../hooks/usage.ts';
import { usePredictionStream } from '../hooks/usePredictionStream.ts';
import { SourcedBody } from '../components/SourceNotice.tsx';

export function Dashboard() {
  const queryClient = useQueryClient();
  const marketStream = useMarketStream({
    onSnapshot: (items) => queryClient.setQueryData(marketDataKey, items),
  });
  // Polls only while the market channel is down.
  const market = useMarketData({ live: marketStream.state === 'open' });
  const [forecasts, setForecasts] = useState(() => new Map<string, Datapoint>());
  const onData = useCallback(
    (points: Datapoint[]) => {
      setForecasts((previous) => {
        const next = new Map(previous);
        for (const point of points) if (point.horizon === '1h') next.set(point.symbol, point);
        return next;
      });
      queryClient.invalidateQueries({ queryKey: ['outlook'] });
    },
    [queryClient],
  );
  const stream = usePredictionStream({ horizon: '1h', onData });

  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>Dashboard</h1>
          <p className="muted">Markets, the model's outlook and your API usage at a glance.</p>
        </div>
        <LiveBadge state={stream.state} lastAt={stream.lastAt} />
      </div>
      <SourcedBody kind="market" failed={market.isError}>
        <UsagePanel />
        <AnalyticsPanel />
        <MarketTable
          items={market.data}
          error={market.error}
          forecasts={forecasts}
          feed={marketStream.state}
          onRetry={() => market.refetch()}
        />
        <section aria-labelledby="outlook-title">
          <h2 id="outlook-title" className="section-title">
            AI outlook
          </h2>
          <SymbolOutlooks symbols={(market.data ?? []).map((item) => item.symbol)} />
        </section>
      </SourcedBody>
    </div>
  );
}

/** Cards shown on the dashboard: the first symbols of the market table, in its order. */
const DASHBOARD_OUTLOOKS = Math.min(12, MAX_OUTLOOK_SYMBOLS);

/** One outlook card per symbol, every card from one batched request (`symbols=`), not one request each. */
function SymbolOutlooks({ symbols }: { symbols: string[] }) {
  const shown = symbols.slice(0, DASHBOARD_OUTLOOKS);
  const outlooks = useOutlooks(shown);
  if (outlooks.isError) return <ErrorNote error={outlooks.error} onRetry={() => outlooks.refetch()} />;
  return (
    <div className="grid outlook-grid">
      {outlooks.data
        ? outlooks.data.map((entry) => <OutlookEntryCard key={entry.requested} entry={entry} />)
        : (shown.length ? shown : ['a', 'b', 'c', 'd']).map((key) => <OutlookSkeleton key={key} compact />)}
    </div>
  );
}

/** Plan, rate limit and the requests used in the current window. */
export function UsagePanel() {
  const account = useAccount().data as Account;
  const usage = useUsage();
  const limit = usage?.limit ?? account.limits.requestsPerMinute;
  const used = usage?.used ?? 0;
  return (
    <section className="grid stats" aria-label="Plan and usage">
      <div className="card stat">
        <span className="stat-label">Plan</span>
        <span className="stat-value capitalize">{account.plan}</span>
        <span className="muted small">Role {account.role}</span>
      </div>
      <div className="card stat">
        <span className="stat-label">Rate limit</span>
        <span className="stat-value">{limit.toLocaleString('en-US')}</span>
        <span className="muted small">requests per {usage?.windowSeconds ?? 60} s, all keys together</span>
      </div>
      <div className="card stat">
        <span className="stat-label">Used in this window</span>
        <span className="stat-value">{usage ? used.toLocaleString('en-US') : '—'}</span>
        <meter
          className="usage-meter"
          min={0}
          max={limit}
          value={used}
          aria-label="Share of the rate limit used"
        />
      </div>
      <div className="card stat">
        <span className="stat-label">Push connections</span>
        <span className="stat-value">{account.limits.wsConnections}</span>
        <span className="muted small">concurrent WebSockets allowed</span>
      </div>
    </section>
  );
}
