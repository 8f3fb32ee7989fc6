import type { Performance } from '../api/types.ts';
import { usePerformance } from '../hooks/queries.ts';
import { formatDateTime, formatRatio } from '../lib/format.ts';
import { ErrorNote } from './ErrorNote.tsx';
import { Skeleton } from './Skeleton.tsx';
import { TableHead } from './TableHead.tsx';

/** The scored track record for one symbol: hit rate and calibration per horizon, with a reliability diagram. */
export function TrackRecord({ symbol, horizon }: { symbol: string; horizon: string }) {
  const performance = usePerformance();
  const rows = performance.data?.data.filter((r) => r.symbol === symbol) ?? [];
  const selected = rows.find((r) => r.horizon === horizon) ?? rows[0];
  return (
    <section className="card" aria-labelledby="track-title">
      <header className="card-header">
        <h2 id="track-title">Track record</h2>
        {performance.data ? (
          <span className="muted small">
            Model {performance.data.modelVersion} · scored {formatDateTime(performance.data.generatedAt)}
          </span>
        ) : null}
      </header>
      {performance.isError ? (
        <ErrorNote error={performance.error} onRetry={() => performance.refetch()} />
      ) : null}
      {performance.isPending ? (
        <Skeleton height={220} />
      ) : rows.length === 0 ? (
        <p className="muted">No scored forecasts for this symbol yet.</p>
      ) : (
        <div className="track">
          <div className="table-scroll">
            <table className="data">
              <TableHead
                columns={[
                  'Horizon',
                  { label: 'Scored', num: true },
                  { label: 'Hit rate', num: true },
                  { label: 'In 80 % band', num: true },
                  { label: 'In 90 % band', num: true },
                  { label: 'ECE', num: true, title: 'Expected calibration error (lower is better)' },
                  { label: 'Skill', num: true, title: 'CRPS skill against a random walk (above 0 beats it)' },
                ]}
              />
              <tbody>
                {rows.map((r) => (
                  <tr key={r.horizon} aria-current={r === selected ? 'true' : undefined}>
                    <th scope="row">{r.horizon}</th>
                    <td className="num">{r.count.toLocaleString('en-US')}</td>
                    {r.sample === 'insufficient' ? (
                      <td colSpan={5} className="muted">
                        Too few to judge yet: {r.count.toLocaleString('en-US')} of{' '}
                        {r.minSample.toLocaleString('en-US')} scored
                      </td>
                    ) : (
                      <>
                        <td className="num">{formatRatio(r.hitRate)}</td>
                        <td className="num">{formatRatio(r.coverage80)}</td>
                        <td className="num">{formatRatio(r.coverage90)}</td>
                        <td className="num">{r.ece?.toFixed(3)}</td>
                        <td className="num">{r.crpsSkillVsRandomWalk?.toFixed(3)}</td>
                      </>
                    )}
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
          {selected?.calibration ? <ReliabilityDiagram row={selected} /> : null}
        </div>
      )}
    </section>
  );
}

/** Stated confidence (x) against how often such calls were right (y); the diagonal is perfect calibration. */
export function ReliabilityDiagram({ row }: { row: Performance }) {
  const size = 220;
  const pad = 32;
  const scale = (v: number) => pad + v * (size - pad * 1.5);
  const y = (v: number) => size - scale(v) + pad / 2;
  const bins = (row.calibration ?? []).filter(
    (b) => b.count > 0 && b.hitRate !== null && b.meanConfidence !== null,
  );
  const maxCount = Math.max(1, ...bins.map((b) => b.count));
  return (
    <figure className="reliability">
      <svg viewBox={`0 0 ${size} ${size}`} role="img" aria-labelledby="reliability-caption">
        <title>Reliability diagram, {row.horizon}</title>
        <line x1={scale(0)} y1={y(0)} x2={scale(1)} y2={y(1)} className="diagonal" />
        <line x1={scale(0)} y1={y(0)} x2={scale(1)} y2={y(0)} className="axis" />
        <line x1={scale(0)} y1={y(0)} x2={scale(0)} y2={y(1)} className="axis" />
        {[0, 0.5, 1].map((t) => (
          <g key={t}>
            <text x={scale(t)} y={y(0) + 14} textAnchor="middle">
              {t * 100}%
            </text>
            <text x={scale(0) - 6} y={y(t) + 4} textAnchor="end">
              {t * 100}%
            </text>
          </g>
        ))}
        {bins.map((b) => (
          <circle
            key={b.lower}
            cx={scale(b.meanConfidence!)}
            cy={y(b.hitRate!)}
            r={3 + 5 * Math.sqrt(b.count / maxCount)}
            className="bin"
          >
            <title>
              {`confidence ${formatRatio(b.meanConfidence)} → right ${formatRatio(b.hitRate)} of ${b.count}`}
            </title>
          </circle>
        ))}
      </svg>
      <figcaption id="reliability-caption">
        Reliability, {row.horizon}: stated confidence (across) against the share that came true (up). Points
        on the diagonal are well calibrated.
      </figcaption>
    </figure>
  );
}
