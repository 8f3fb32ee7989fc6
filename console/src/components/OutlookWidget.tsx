import { Link } from 'react-router';
import type { Outlook, OutlookEntry, OutlookEntryError } from '../api/types.ts';
import { useOutlook } from '../hooks/queries.ts';
import { formatPercent, formatRatio, formatSymbol } from '../lib/format.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { Skeleton } from './Skeleton.tsx';

const biasWords = { bullish: 'Bullish', bearish: 'Bearish', neutral: 'Neutral' } as const;

export function BiasBadge({ bias }: { bias: Outlook['bias'] }) {
  return <span className={`bias ${bias}`}>{biasWords[bias]}</span>;
}

/** Score in [-1, 1] as a bar centred on zero. */
export function ScoreBar({ score }: { score: number }) {
  const width = Math.min(50, Math.abs(score) * 50);
  return (
    <span className="score-bar" role="img" aria-label={`score ${score.toFixed(2)} on a scale from −1 to +1`}>
      <span
        className={score >= 0 ? 'pos' : 'neg'}
        style={{ width: `${width}%`, [score >= 0 ? 'left' : 'right']: '50%' }}
      />
    </span>
  );
}

/**
 * The AI outlook for one symbol, or across every symbol (`symbol` undefined), fetched on its own: bias, the
 * outlook's own sentence, the per-horizon view and the drivers in plain words. A horizon shows a move and a
 * confidence only where its direction was earned; elsewhere it says so and shows the 80 % range.
 */
export function OutlookCard({ symbol, compact = false }: { symbol: string | undefined; compact?: boolean }) {
  const outlook = useOutlook(symbol);
  if (outlook.isPending) return <OutlookSkeleton compact={compact} />;
  if (outlook.isError)
    return (
      <article className="outlook card">
        <h3>{symbol ? formatSymbol(symbol) : 'Every symbol'}</h3>
        <ErrorNote error={outlook.error} onRetry={() => outlook.refetch()} />
      </article>
    );
  return <OutlookView outlook={outlook.data} symbol={symbol} compact={compact} />;
}

export function OutlookSkeleton({ compact = false }: { compact?: boolean }) {
  return (
    <article className="outlook card" aria-busy="true">
      <Skeleton height={20} width="40%" />
      <Skeleton height={12} />
      <Skeleton height={compact ? 36 : 90} />
    </article>
  );
}

/**
 * One entry of a batched outlook answer (the dashboard's cards): the symbol's outlook with what its data is
 * (simulated, stale, still warming up) said on the card, or why it has none.
 */
export function OutlookEntryCard({ entry }: { entry: OutlookEntry | OutlookEntryError }) {
  if (entry.symbol === null || !('outlook' in entry))
    return (
      <article className="outlook card">
        <h3>{entry.requested}</h3>
        <p className="muted small">{'error' in entry ? entry.error.detail : 'No outlook.'}</p>
      </article>
    );
  const notes = [
    entry.source === 'simulated' ? 'simulated data' : undefined,
    entry.stale ? 'stale' : undefined,
    entry.backfilling ? 'model warming up' : undefined,
  ].filter((note) => note !== undefined);
  return <OutlookView outlook={entry.outlook} symbol={entry.symbol} compact notes={notes} />;
}

/** An outlook as a card: bias, score, message, per-horizon view (unless compact) and drivers. */
export function OutlookView({
  outlook: o,
  symbol,
  compact = false,
  notes = [],
}: {
  outlook: Outlook;
  symbol: string | undefined;
  compact?: boolean;
  /** What the data behind it is, when not plainly live (simulated, stale, warming up). */
  notes?: string[];
}) {
  const id = `outlook-${symbol ?? 'market'}`;
  const drivers = compact ? o.drivers.slice(0, 2) : o.drivers;
  return (
    <article className="outlook card" aria-labelledby={id} data-symbol={symbol}>
      <header>
        <h3 id={id}>
          {!symbol ? (
            'Every symbol'
          ) : compact ? (
            <Link to={`/symbols/${symbol}`}>{formatSymbol(symbol)}</Link>
          ) : (
            'AI outlook'
          )}
        </h3>
        <BiasBadge bias={o.bias} />
      </header>
      <ScoreBar score={o.score} />
      <p className="outlook-message">{o.message}</p>
      {notes.length ? <p className="muted small">{notes.join(' · ')}</p> : null}
      {compact ? null : (
        <dl className="horizons">
          {Object.entries(o.horizons).map(([horizon, view]) => (
            <div key={horizon}>
              <dt>{horizon}</dt>
              <dd>
                <BiasBadge bias={view.bias} />
                {view.bias === 'neutral' ? (
                  <span className="muted small">no direction earned</span>
                ) : (
                  <>
                    <span>{formatPercent(view.expectedMovePct, 2)}</span>
                    <span className="muted small">confidence {formatRatio(view.confidence, 0)}</span>
                  </>
                )}
                <span className="small" title="80 % of outcomes are expected in this range (p10…p90)">
                  80 % in {formatPercent(view.interval80Pct.low, 2)} …{' '}
                  {formatPercent(view.interval80Pct.high, 2)}
                </span>
              </dd>
            </div>
          ))}
        </dl>
      )}
      <ul className="drivers">
        {drivers.map((driver) => (
          <li key={driver.factor}>
            <span className={`dot ${driver.direction}`} aria-hidden="true" />
            {driver.reason}
          </li>
        ))}
      </ul>
    </article>
  );
}
