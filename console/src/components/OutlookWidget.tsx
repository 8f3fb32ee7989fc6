import { Link } from 'react-router';
import type { Outlook } from '../api/types.ts';
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
 * The AI outlook for one symbol, or across every symbol (`symbol` undefined: one request for the whole
 * market): bias, confidence, the per-horizon view and the drivers in plain words.
 */
export function OutlookCard({ symbol, compact = false }: { symbol: string | undefined; compact?: boolean }) {
  const id = `outlook-${symbol ?? 'market'}`;
  const outlook = useOutlook(symbol);
  if (outlook.isPending)
    return (
      <article className="outlook card" aria-busy="true">
        <Skeleton height={20} width="40%" />
        <Skeleton height={12} />
        <Skeleton height={compact ? 36 : 90} />
      </article>
    );
  if (outlook.isError)
    return (
      <article className="outlook card">
        <h3>{symbol ? formatSymbol(symbol) : 'Every symbol'}</h3>
        <ErrorNote error={outlook.error} onRetry={() => outlook.refetch()} />
      </article>
    );
  const o = outlook.data;
  const drivers = compact ? o.drivers.slice(0, 2) : o.drivers;
  return (
    <article className="outlook card" aria-labelledby={id}>
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
      <p className="muted small">
        Confidence {formatRatio(o.confidence, 0)} · score {o.score.toFixed(2)}
      </p>
      {compact ? null : (
        <dl className="horizons">
          {Object.entries(o.horizons).map(([horizon, view]) => (
            <div key={horizon}>
              <dt>{horizon}</dt>
              <dd>
                <BiasBadge bias={view.bias} />
                <span>{formatPercent(view.expectedMovePct, 2)}</span>
                <span className="muted small">confidence {formatRatio(view.confidence, 0)}</span>
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
