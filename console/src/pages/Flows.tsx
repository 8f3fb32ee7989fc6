import { type FormEvent, useMemo, useState } from 'react';
import { useSearchParams } from 'react-router';
import { ErrorNote } from '../components/ErrorNote.tsx';
import { NetflowChart } from '../components/NetflowChart.tsx';
import { Skeleton, SkeletonRows } from '../components/Skeleton.tsx';
import { type FlowFilters, useFlows, useNetflow } from '../hooks/queries.ts';
import { formatAmount, formatDateTime, formatUsd, shortHash } from '../lib/format.ts';
import { netflowView } from '../lib/netflow.ts';
import { TableHead } from '../components/TableHead.tsx';
import { SourceNotice } from '../components/SourceNotice.tsx';

const directions = ['deposit', 'withdrawal', 'internal'] as const;

export default function Flows() {
  const [params, setParams] = useSearchParams();
  const filters: FlowFilters = {
    exchange: params.get('exchange') || undefined,
    asset: params.get('asset') || undefined,
    direction: directions.find((d) => d === params.get('direction')),
    minUsd: params.get('minUsd') ? Number(params.get('minUsd')) : undefined,
  };
  const flows = useFlows(filters);
  const netflow = useNetflow(filters);
  const view = useMemo(() => netflowView(netflow.data?.data ?? []), [netflow.data]);
  const scope = [filters.exchange ?? 'all exchanges', filters.asset ?? 'all assets'].join(' · ');
  const [shown, setShown] = useState(25);

  const apply = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const next = new URLSearchParams();
    for (const key of ['exchange', 'asset', 'direction', 'minUsd']) {
      const value = String(form.get(key) ?? '').trim();
      if (value) next.set(key, value);
    }
    setParams(next);
  };
  const summary = flows.data?.summary;

  return (
    <div className="page">
      <div className="page-title">
        <div>
          <h1>On-chain flows</h1>
          <p className="muted">Deposits to and withdrawals from exchange wallets, valued at block time.</p>
        </div>
      </div>
      <SourceNotice kind="onchain" />
      <form className="card filters" onSubmit={apply} aria-label="Filter flows" key={params.toString()}>
        <div className="field">
          <label htmlFor="f-exchange">Exchange</label>
          <input id="f-exchange" name="exchange" defaultValue={filters.exchange} placeholder="binance" />
        </div>
        <div className="field">
          <label htmlFor="f-asset">Asset</label>
          <input id="f-asset" name="asset" defaultValue={filters.asset} placeholder="USDT" />
        </div>
        <div className="field">
          <label htmlFor="f-direction">Direction</label>
          <select id="f-direction" name="direction" defaultValue={filters.direction ?? ''}>
            <option value="">Any</option>
            {directions.map((d) => (
              <option key={d} value={d}>
                {d}
              </option>
            ))}
          </select>
        </div>
        <div className="field">
          <label htmlFor="f-min">Minimum USD</label>
          <input id="f-min" name="minUsd" type="number" min={0} step="any" defaultValue={filters.minUsd} />
        </div>
        <div className="field actions">
          <button type="submit" className="button primary">
            Apply
          </button>
          <button type="button" className="button ghost" onClick={() => setParams(new URLSearchParams())}>
            Clear
          </button>
        </div>
      </form>
      <ErrorNote error={flows.error} onRetry={() => flows.refetch()} />

      <div className="grid stats">
        {(['1h', '24h'] as const).map((window) => (
          <div className="card stat" key={window}>
            <span className="stat-label">Netflow {window}</span>
            <span
              className={`stat-value ${summary ? (summary[window].netflowUsd >= 0 ? 'up' : 'down') : ''}`}
            >
              {summary ? (
                formatUsd(summary[window].netflowUsd, { signed: true })
              ) : (
                <Skeleton width={100} height={28} />
              )}
            </span>
            <span className="muted small">
              {summary
                ? `in ${formatUsd(summary[window].inflowUsd)} · out ${formatUsd(summary[window].outflowUsd)}`
                : '\u00a0'}
            </span>
          </div>
        ))}
      </div>

      <section className="card" aria-labelledby="netflow-title">
        <header className="card-header">
          <h2 id="netflow-title">Netflow, last 7 days by hour</h2>
          <span className="muted small" data-testid="netflow-summary">
            {netflow.data
              ? `${scope}: ${formatUsd(view.netflowUsd, { signed: true })} (in ${formatUsd(view.inflowUsd)} · out ${formatUsd(view.outflowUsd)}) · ${view.flows} flows${view.unpriced ? `, ${view.unpriced} without a USD value` : ''}${view.partial ? ` · ${view.partial} partial hours (grey: indexer behind, or before indexing began)` : ''}`
              : '\u00a0'}
          </span>
        </header>
        <ErrorNote error={netflow.error} onRetry={() => netflow.refetch()} />
        <div className="chart-frame short">
          <NetflowChart view={view} label={scope} />
        </div>
      </section>

      <section className="card flush" aria-labelledby="flows-title">
        <header className="card-header">
          <h2 id="flows-title">Recent flows</h2>
          {flows.data ? (
            <span className="muted small">
              {flows.data.data.length} loaded · labels {flows.data.labels.version}
            </span>
          ) : null}
        </header>
        <div className="table-scroll">
          <table className="data">
            <TableHead
              columns={[
                'Time',
                'Exchange',
                'Direction',
                { label: 'Amount', num: true },
                { label: 'USD', num: true },
                'Transaction',
              ]}
            />
            <tbody>
              {flows.data ? (
                flows.data.data.length === 0 ? (
                  <tr>
                    <td colSpan={6} className="muted">
                      No flows match these filters.
                    </td>
                  </tr>
                ) : (
                  flows.data.data.slice(0, shown).map((f) => (
                    <tr key={f.id}>
                      <td>{formatDateTime(f.time)}</td>
                      <td className="capitalize">{f.exchange}</td>
                      <td>
                        <span
                          className={`badge ${f.direction === 'deposit' ? 'in' : f.direction === 'withdrawal' ? 'out' : ''}`}
                        >
                          {f.direction}
                        </span>
                      </td>
                      <td className="num">
                        {formatAmount(f.amount)} {f.asset}
                      </td>
                      <td className="num">{formatUsd(f.usdValue)}</td>
                      <td>
                        <code title={f.txHash}>{shortHash(f.txHash)}</code>
                      </td>
                    </tr>
                  ))
                )
              ) : (
                <SkeletonRows rows={8} columns={6} />
              )}
            </tbody>
          </table>
        </div>
        {flows.data && flows.data.data.length > shown ? (
          <div className="more">
            <button type="button" className="button small" onClick={() => setShown((n) => n + 50)}>
              Show more ({flows.data.data.length - shown} loaded)
            </button>
          </div>
        ) : null}
      </section>
    </div>
  );
}
