import type { BacktestReport } from './report.ts';

const COLORS: Record<string, string> = { '15m': '#1f77b4', '1h': '#d62728', '6h': '#2ca02c' };

const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');

/**
 * The report as a picture: left, the reliability diagram of the ensemble's `confidence` on equal-mass bins
 * (deciles of confidence; hit rate per bin, diagonal = perfect), its axes spanning every point so none is
 * clipped; right, the rolling coverage of the 80 % and 90 % intervals over time against their targets.
 * Plain SVG, no dependency.
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
  // Confidence lives in [0.5, 1] and hit rates near 0.5: zoom to the points, never clip one at the axis.
  const points = Object.values(report.horizons).flatMap((hr) =>
    (hr?.forecasters.ensemble.calibrationEqualMass ?? []).flatMap((b) =>
      b.count ? [b.meanConfidence!, b.hitRate!] : [],
    ),
  );
  const lo = Math.floor(Math.min(0.4, ...points) * 20) / 20;
  const hi = Math.ceil(Math.max(0.7, ...points) * 20) / 20;
  const unit = (v: number) => (v - lo) / (hi - lo);
  const sx = (c: number) => rx + unit(c) * pw;
  const sy = (p: number) => ry + ph - unit(p) * ph;
  parts.push(
    `<rect x="${rx}" y="${ry}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`,
    `<line x1="${sx(lo)}" y1="${sy(lo)}" x2="${sx(hi)}" y2="${sy(hi)}" stroke="#bbb" stroke-dasharray="4 3"/>`,
    `<text x="${rx + pw / 2}" y="${ry + ph + 32}" text-anchor="middle">confidence (calibrated P(direction right))</text>`,
    `<text x="${rx - 34}" y="${ry + ph / 2}" transform="rotate(-90 ${rx - 34} ${ry + ph / 2})" text-anchor="middle">observed hit rate</text>`,
    `<text x="${rx + pw / 2}" y="${ry - 8}" text-anchor="middle">Reliability diagram (ensemble, equal-mass bins)</text>`,
  );
  for (let v = lo; v <= hi + 1e-9; v += 0.05) {
    parts.push(
      `<text x="${sx(v)}" y="${ry + ph + 15}" text-anchor="middle">${v.toFixed(2)}</text>`,
      `<text x="${rx - 5}" y="${sy(v) + 4}" text-anchor="end">${v.toFixed(2)}</text>`,
    );
  }
  let legendY = ry + 15;
  for (const [h, hr] of Object.entries(report.horizons)) {
    if (!hr) continue;
    const m = hr.forecasters.ensemble;
    const color = COLORS[h] ?? '#555';
    const pts = m.calibrationEqualMass.filter((b) => b.count > 0);
    const path = pts.map((b) => `${sx(b.meanConfidence!)},${sy(b.hitRate!)}`).join(' ');
    parts.push(`<polyline points="${path}" fill="none" stroke="${color}" stroke-width="1.5"/>`);
    for (const b of pts) {
      const r = Math.max(2, Math.min(12, Math.sqrt(b.count / m.count) * 14));
      parts.push(
        `<circle cx="${sx(b.meanConfidence!)}" cy="${sy(b.hitRate!)}" r="${r.toFixed(1)}" fill="${color}" fill-opacity="0.5"/>`,
      );
    }
    parts.push(
      `<text x="${rx + 10}" y="${legendY}" fill="${color}">${h}: ECE ${m.eceEqualMass.toFixed(3)} (equal mass), hit ${(100 * m.hitRate).toFixed(1)}% ± ${(100 * m.hitRateSE).toFixed(1)}, n=${m.count}</text>`,
    );
    legendY += 15;
  }
  // Coverage over time.
  const cx = rx + pw + 90;
  const series = Object.values(report.horizons).flatMap((hr) => hr?.coverageSeries ?? []);
  const t0 = Math.min(...series.map((p) => p.t));
  const t1 = Math.max(...series.map((p) => p.t));
  const tx = (t: number) => cx + (t1 > t0 ? ((t - t0) / (t1 - t0)) * pw : 0);
  const cLo = Math.floor(Math.min(0.5, ...series.flatMap((p) => [p.coverage80, p.coverage90])) * 10) / 10;
  const cy = (c: number) => ry + ph - ((c - cLo) / (1 - cLo)) * ph;
  parts.push(
    `<rect x="${cx}" y="${ry}" width="${pw}" height="${ph}" fill="none" stroke="#999"/>`,
    `<text x="${cx + pw / 2}" y="${ry - 8}" text-anchor="middle">Interval coverage over time (solid 80 %, dashed 90 %)</text>`,
    `<line x1="${cx}" y1="${cy(0.8)}" x2="${cx + pw}" y2="${cy(0.8)}" stroke="#888" stroke-dasharray="2 2"/>`,
    `<line x1="${cx}" y1="${cy(0.9)}" x2="${cx + pw}" y2="${cy(0.9)}" stroke="#888" stroke-dasharray="2 2"/>`,
    `<text x="${cx + pw / 2}" y="${ry + ph + 32}" text-anchor="middle">forecast time (UTC)</text>`,
  );
  for (let c = cLo; c <= 1 + 1e-9; c += 0.1)
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
