import type { BacktestReport } from './run.ts';

const COLORS: Record<string, string> = { '15m': '#1f77b4', '1h': '#d62728', '6h': '#2ca02c' };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * The report as a picture: left, the reliability diagram of the ensemble's `confidence` (hit rate per
 * confidence bin, dot area ∝ count, diagonal = perfect); right, the rolling coverage of the 80 % and 90 %
 * intervals over time against their targets. Plain SVG, no dependency.
 */
export function reportSvg(report: BacktestReport): string {
  const W = 960;
  const Hh = 440;
  const pad = 50;
  const pw = 380;
  const ph = 320;
  const parts: string[] = [];
  parts.push(
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${Hh}" viewBox="0 0 ${W} ${Hh}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${Hh}" fill="#fff"/>`,
    `<text x="${W / 2}" y="20" text-anchor="middle" font-size="15">${esc(`${report.symbol} walk-forward backtest ${report.from.slice(0, 10)} → ${report.to.slice(0, 10)} (${report.modelVersion})`)}</text>`,
  );
  // Reliability diagram.
  const rx = pad;
  const ry = 50;
  const sx = (c: number) => rx + c * pw;
  const sy = (p: number) => ry + ph - p * ph;
  parts.push(
    `<rect x="${rx}" y="${ry}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`,
    `<line x1="${sx(0)}" y1="${sy(0)}" x2="${sx(1)}" y2="${sy(1)}" stroke="#bbb" stroke-dasharray="4 3"/>`,
    `<text x="${rx + pw / 2}" y="${ry + ph + 32}" text-anchor="middle">confidence (calibrated P(direction right))</text>`,
    `<text x="${rx - 34}" y="${ry + ph / 2}" transform="rotate(-90 ${rx - 34} ${ry + ph / 2})" text-anchor="middle">observed hit rate</text>`,
    `<text x="${rx + pw / 2}" y="${ry - 8}" text-anchor="middle">Reliability diagram (ensemble)</text>`,
  );
  for (let k = 0; k <= 10; k += 2) {
    parts.push(
      `<text x="${sx(k / 10)}" y="${ry + ph + 15}" text-anchor="middle">${(k / 10).toFixed(1)}</text>`,
      `<text x="${rx - 5}" y="${sy(k / 10) + 4}" text-anchor="end">${(k / 10).toFixed(1)}</text>`,
    );
  }
  let legendY = ry + 15;
  for (const [h, hr] of Object.entries(report.horizons)) {
    if (!hr) continue;
    const m = hr.forecasters.ensemble;
    const color = COLORS[h] ?? '#555';
    const pts = m.calibration.filter((b) => b.count > 0);
    const path = pts.map((b) => `${sx(b.meanConfidence!)},${sy(b.hitRate!)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="1.5"/>`);
    for (const b of pts) {
      const r = Math.max(2, Math.min(12, Math.sqrt(b.count / m.count) * 14));
      parts.push(
        `<circle cx="${sx(b.meanConfidence!)}" cy="${sy(b.hitRate!)}" r="${r.toFixed(1)}" fill="${color}" fill-opacity="0.5"/>`,
      );
    }
    parts.push(
      `<text x="${rx + 10}" y="${legendY}" fill="${color}">${h}: ECE ${m.ece.toFixed(3)}, hit ${(100 * m.hitRate).toFixed(1)}% ± ${(100 * m.hitRateSE).toFixed(1)}, n=${m.count}</text>`,
    );
    legendY += 15;
  }
  // Coverage over time.
  const cx = rx + pw + 90;
  const series = Object.values(report.horizons).flatMap((hr) => hr?.coverageSeries ?? []);
  const t0 = Math.min(...series.map((p) => p.t));
  const t1 = Math.max(...series.map((p) => p.t));
  const tx = (t: number) => cx + (t1 > t0 ? ((t - t0) / (t1 - t0)) * pw : 0);
  const lo = 0.5;
  const cy = (c: number) => ry + ph - ((Math.max(c, lo) - lo) / (1 - lo)) * ph;
  parts.push(
    `<rect x="${cx}" y="${ry}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`,
    `<text x="${cx + pw / 2}" y="${ry - 8}" text-anchor="middle">Interval coverage over time (solid 80 %, dashed 90 %)</text>`,
    `<line x1="${cx}" y1="${cy(0.8)}" x2="${cx + pw}" y2="${cy(0.8)}" stroke="#888" stroke-dasharray="2 2"/>`,
    `<line x1="${cx}" y1="${cy(0.9)}" x2="${cx + pw}" y2="${cy(0.9)}" stroke="#888" stroke-dasharray="2 2"/>`,
    `<text x="${cx + pw / 2}" y="${ry + ph + 32}" text-anchor="middle">forecast time (UTC)</text>`,
  );
  for (const c of [0.5, 0.6, 0.7, 0.8, 0.9, 1])
    parts.push(`<text x="${cx - 5}" y="${cy(c) + 4}" text-anchor="end">${c.toFixed(1)}</text>`);
  if (series.length) {
    parts.push(
      `<text x="${cx}" y="${ry + ph + 15}">${new Date(t0).toISOString().slice(0, 10)}</text>`,
      `<text x="${cx + pw}" y="${ry + ph + 15}" text-anchor="end">${new Date(t1).toISOString().slice(0, 10)}</text>`,
    );
  }
  legendY = ry + ph - 40;
  for (const [h, hr] of Object.entries(report.horizons)) {
    if (!hr) continue;
    const color = COLORS[h] ?? '#555';
    const p8 = hr.coverageSeries.map((p) => `${tx(p.t).toFixed(1)},${cy(p.coverage80).toFixed(1)}`).join(' ');
    const p9 = hr.coverageSeries.map((p) => `${tx(p.t).toFixed(1)},${cy(p.coverage90).toFixed(1)}`).join(' ');
    const m = hr.forecasters.ensemble;
    parts.push(
      `<polyline points="${p8}" fill="none" stroke="${color}" stroke-width="1.3"/>`,
      `<polyline points="${p9}" fill="none" stroke="${color}" stroke-width="1" stroke-dasharray="4 2"/>`,
      `<text x="${cx + 10}" y="${legendY}" fill="${color}">${h}: 80 % covers ${(100 * m.coverage80).toFixed(1)} %, 90 % covers ${(100 * m.coverage90).toFixed(1)} %</text>`,
    );
    legendY += 15;
  }
  parts.push('</svg>');
  return parts.join('\n');
}
