import { Link } from 'react-router';
import type { Analytics } from '../api/types.ts';
import { topEndpoints, useAnalytics } from '../hooks/analytics.ts';
import {
  formatDateTime,
  formatPercent,
  formatRatio,
  formatRelative,
  formatUsdAmount,
} from '../lib/format.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { Skeleton } from './Skeleton.tsx';

const tone = (value: string | number | null | undefined) => {
  const n = Number(value);
  return value === null || value === undefined || !n ? '' : n > 0 ? 'up' : 'down';
};

/** The account summary from GET /api/dashboard/analytics: portfolio, alerts, API usage, track record. */
export function AnalyticsPanel() {
  const analytics = useAnalytics();
  if (analytics.data === null) return null; // a server without the route: the usage panel says enough
  if (analytics.isError)
    return (
      <section className="card">
        <ErrorNote error={analytics.error} onRetry={() => analytics.refetch()} />
      </section>
    );
  const a = analytics.data;
  return (
    <section aria-labelledby="analytics-title" className="analytics" aria-busy={!a}>
      <div className="section-heading">
        <h2 id="analytics-title" className="section-title">
          Your account
        </h2>
        {a ? (
          <span className="muted small" title={formatDateTime(a.generatedAt)}>
            Updated {formatRelative(a.generatedAt, Date.now())}
          </span>
        ) : null}
      </div>
      <div className="grid stats">
        <Stat label="Portfolio value" value={a && formatUsdAmount(a.portfolio.valueUsd)}>
          {a && isEmpty(a) ? (
            <span className="muted small">No holdings yet</span>
          ) : a ? (
            <span className={`small ${tone(a.portfolio.change24hUsd) || 'muted'}`}>
              {formatUsdAmount(a.portfolio.change24hUsd, { signed: true })} (
              {formatPercent(a.portfolio.change24hPct)}) in 24 h
            </span>
          ) : null}
        </Stat>
        <Stat
          label="Unrealized P&L"
          value={a && formatUsdAmount(a.portfolio.unrealizedPnlUsd, { signed: true })}
          tone={tone(a?.portfolio.unrealizedPnlUsd)}
        >
          {a && isEmpty(a) ? (
            <span className="muted small">Import a CSV on the portfolio page</span>
          ) : a ? (
            <span className="muted small">
              {formatPercent(a.portfolio.unrealizedPnlPct)} on {formatUsdAmount(a.portfolio.costBasisUsd)}{' '}
              cost
            </span>
          ) : null}
        </Stat>
        <Stat label="Active alerts" value={a && String(a.alerts.byState.active)}>
          {a ? <span className="muted small">{otherStates(a.alerts.byState)}</span> : null}
        </Stat>
        <Stat label="API requests, 24 h" value={a?.usage.requests.toLocaleString('en-US')}>
          {a ? (
            <span className={`small ${a.usage.rateLimited ? 'down' : 'muted'}`}>
              {a.usage.rateLimited
                ? `${a.usage.rateLimited.toLocaleString('en-US')} rate-limited`
                : 'none rate-limited'}
              {` · ${a.usage.tokens.active} active ${a.usage.tokens.active === 1 ? 'key' : 'keys'}`}
            </span>
          ) : null}
        </Stat>
      </div>
      <div className="grid two analytics-cards">
        <Allocation analytics={a} />
        <Triggers analytics={a} />
        <EndpointUsage analytics={a} />
        <TrackRecordSummary analytics={a} />
      </div>
    </section>
  );
}

function Stat({
  label,
  value,
  tone = '',
  children,
}: {
  label: string;
  value: string | undefined;
  tone?: string;
  children?: React.ReactNode;
}) {
  return (
    <div className="card stat">
      <span className="stat-label">{label}</span>
      {value === undefined ? (
        <Skeleton height={30} width="60%" />
      ) : (
        <span className={`stat-value ${tone}`}>{value}</span>
      )}
      {children ?? <Skeleton height={12} width="80%" />}
    </div>
  );
}

const isEmpty = (a: Analytics) =>
  a.portfolio.allocation.length === 0 && a.portfolio.unpricedAssets.length === 0;

const otherStates = (byState: Analytics['alerts']['byState']) => {
  const parts = (['triggered', 'paused', 'failing', 'expired'] as const)
    .filter((s) => byState[s] > 0)
    .map((s) => `${byState[s]} ${s}`);
  return parts.length ? parts.join(' · ') : 'no paused, triggered or failing rules';
};

function CardSkeleton() {
  return (
    <>
      <Skeleton height={14} width="90%" />
      <Skeleton height={14} width="75%" />
      <Skeleton height={14} width="80%" />
    </>
  );
}

function Allocation({ analytics: a }: { analytics: Analytics | undefined }) {
  return (
    <article className="card" aria-labelledby="allocation-title">
      <header className="card-header">
        <h3 id="allocation-title">Allocation</h3>
        <Link to="/portfolio" className="small">
          Portfolio
        </Link>
      </header>
      {!a ? (
        <CardSkeleton />
      ) : a.portfolio.allocation.length === 0 ? (
        <p className="muted">No holdings yet. Import a CSV on the portfolio page.</p>
      ) : (
        <ul className="bar-list">
          {a.portfolio.allocation.map((item) => (
            <li key={item.asset}>
              <span className="bar-label">{item.asset}</span>
              <span className="bar-track" aria-hidden="true">
                <span style={{ width: `${Math.max(0, Math.min(100, item.allocationPct ?? 0))}%` }} />
              </span>
              <span className="bar-value">
                {item.allocationPct === null ? (
                  <span className="badge warn plain">no price</span>
                ) : (
                  `${formatPercent(item.allocationPct, 1, false)} · ${formatUsdAmount(item.valueUsd)}`
                )}
              </span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function Triggers({ analytics: a }: { analytics: Analytics | undefined }) {
  const now = Date.now();
  return (
    <article className="card" aria-labelledby="triggers-title">
      <header className="card-header">
        <h3 id="triggers-title">Latest alert triggers</h3>
        <Link to="/alerts" className="small">
          Alerts
        </Link>
      </header>
      {!a ? (
        <CardSkeleton />
      ) : a.alerts.recentTriggers.length === 0 ? (
        <p className="muted">Nothing fired yet.</p>
      ) : (
        <ul className="event-list">
          {a.alerts.recentTriggers.slice(0, 6).map((t) => (
            <li key={t.triggerId}>
              <span>
                <strong>{t.ruleName ?? 'Deleted rule'}</strong>{' '}
                <span className="muted small">{t.type.replace('_', ' ')}</span>
                {t.test ? <span className="badge">test</span> : null}
              </span>
              <span className="muted small" title={formatDateTime(t.firedAt)}>
                {formatRelative(t.firedAt, now)}
              </span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function EndpointUsage({ analytics: a }: { analytics: Analytics | undefined }) {
  const top = a ? topEndpoints(a.usage) : [];
  return (
    <article className="card" aria-labelledby="endpoints-title">
      <header className="card-header">
        <h3 id="endpoints-title">API usage by endpoint, 24 h</h3>
      </header>
      {!a ? (
        <CardSkeleton />
      ) : top.length === 0 ? (
        <p className="muted">No API requests in the last 24 hours.</p>
      ) : (
        <ul className="bar-list">
          {top.map((e) => (
            <li key={e.endpoint}>
              <code className="bar-label" title={e.endpoint}>
                {e.endpoint}
              </code>
              <span className="bar-track" aria-hidden="true">
                <span style={{ width: `${e.share * 100}%` }} />
              </span>
              <span className="bar-value">
                {e.requests.toLocaleString('en-US')}
                {e.rateLimited ? <span className="down"> · {e.rateLimited} limited</span> : null}
              </span>
            </li>
          ))}
        </ul>
      )}
    </article>
  );
}

function TrackRecordSummary({ analytics: a }: { analytics: Analytics | undefined }) {
  return (
    <article className="card" aria-labelledby="record-title">
      <header className="card-header">
        <h3 id="record-title">Forecast track record</h3>
        {a ? <span className="badge plain">{a.forecasts.modelVersion}</span> : null}
      </header>
      {!a ? (
        <CardSkeleton />
      ) : a.forecasts.horizons.length === 0 ? (
        <p className="muted">No forecasts scored yet.</p>
      ) : (
        <table className="data compact">
          <thead>
            <tr>
              <th scope="col">Horizon</th>
              <th scope="col" className="num">
                Hit rate
              </th>
              <th scope="col" className="num" title="Expected calibration error of the confidence">
                Calibration err.
              </th>
              <th scope="col" className="num" title="CRPS skill against a random walk (> 0 is better)">
                CRPS skill
              </th>
              <th scope="col" className="num">
                Scored
              </th>
            </tr>
          </thead>
          <tbody>
            {a.forecasts.horizons.map((h) => (
              <tr key={h.horizon}>
                <th scope="row">{h.horizon}</th>
                <td className="num">{formatRatio(h.hitRate)}</td>
                <td className="num">{formatRatio(h.calibrationError)}</td>
                <td className={`num ${tone(h.crpsSkill)}`}>{formatRatio(h.crpsSkill)}</td>
                <td className="num">{h.scored.toLocaleString('en-US')}</td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </article>
  );
}
