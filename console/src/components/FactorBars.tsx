import type { Datapoint } from '../api/types.ts';
import { factorNames } from '../lib/forecast.ts';

/** Signed factor contributions (shares of the forecast move, Σ|f| = 1) as bars around a zero line. */
export function FactorBars({ factors }: { factors: Datapoint['factors'] }) {
  const entries = Object.entries(factors).sort((a, b) => Math.abs(b[1]) - Math.abs(a[1]));
  return (
    <ul className="factor-bars">
      {entries.map(([name, share]) => (
        <li key={name}>
          <span className="factor-name">{factorNames[name] ?? name}</span>
          <span className="factor-track" aria-hidden="true">
            <span
              className={share >= 0 ? 'pos' : 'neg'}
              style={{ width: `${Math.abs(share) * 50}%`, [share >= 0 ? 'left' : 'right']: '50%' }}
            />
          </span>
          <span className="factor-value num">
            {share >= 0 ? '+' : '−'}
            {Math.abs(share * 100).toFixed(0)} %
          </span>
        </li>
      ))}
    </ul>
  );
}
