import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { parseCandleFileName, readCandleFile, readFundingFile } from '../../market/index.ts';
import { canonicalCandidate } from '../../symbols/index.ts';
import type { Bar, Horizon } from '../types.ts';
import { type BacktestReport, runBacktest } from './run.ts';
import { reportSvg } from './svg.ts';

const usage = `usage: meridian backtest --candles FILE [--candles FILE …] [--funding FILE] --symbol S
                         [--from T --to T] [--horizons 15m,1h,6h] --out report.json [--svg report.svg]

Runs the production prediction model walk-forward over recorded candles (freqtrade JSON or CSV
timestamp,open,high,low,close,volume). Extra --candles files form the market basket. T is ISO 8601 or ms.
Writes the JSON report and an SVG picture (reliability diagram + coverage over time) next to it.`;

function parseTime(v: string | undefined, name: string): number | undefined {
  if (v === undefined) return undefined;
  const t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  if (!Number.isFinite(t)) throw new Error(`--${name}: not a time: ${v}`);
  return t;
}

/** `meridian backtest …`; returns the process exit code. */
export async function runBacktestCommand(argv: string[]): Promise<number> {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        candles: { type: 'string', multiple: true },
        funding: { type: 'string' },
        symbol: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        horizons: { type: 'string' },
        out: { type: 'string' },
        svg: { type: 'string' },
        help: { type: 'boolean' },
      },
    }));
  } catch (error) {
    process.stderr.write(`${(error as Error).message}\n${usage}\n`);
    return 2;
  }
  if (values.help) {
    process.stdout.write(`${usage}\n`);
    return 0;
  }
  const files = (values.candles as string[] | undefined) ?? [];
  const out = values.out as string | undefined;
  if (!files.length || !values.symbol || !out) {
    process.stderr.write(`--candles, --symbol and --out are required\n${usage}\n`);
    return 2;
  }
  try {
    const symbol = canonicalCandidate(String(values.symbol)) ?? String(values.symbol).toUpperCase();
    const bars = new Map<string, Bar[]>();
    for (const [k, file] of files.entries()) {
      const name = parseCandleFileName(file)?.symbol ?? (files.length === 1 ? symbol : `FILE${k}`);
      bars.set(name, await readCandleFile(file));
    }
    if (!bars.has(symbol)) {
      if (files.length === 1) bars.set(symbol, [...bars.values()][0]!);
      else throw new Error(`no --candles file is for ${symbol} (have ${[...bars.keys()].join(', ')})`);
    }
    for (const k of [...bars.keys()]) if (k !== symbol && bars.get(k) === bars.get(symbol)) bars.delete(k);
    const funding = values.funding ? await readFundingFile(String(values.funding)) : undefined;
    const horizons = values.horizons ? (String(values.horizons).split(',') as Horizon[]) : undefined;
    const report: BacktestReport = runBacktest({
      symbol,
      bars,
      funding,
      from: parseTime(values.from as string | undefined, 'from'),
      to: parseTime(values.to as string | undefined, 'to'),
      horizons,
    });
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    const svgPath = (values.svg as string | undefined) ?? out.replace(/\.json$/i, '') + '.svg';
    await writeFile(svgPath, reportSvg(report));
    process.stdout.write(`${summaryTable(report)}\nreport: ${out}\npicture: ${svgPath}\n`);
    return 0;
  } catch (error) {
    process.stderr.write(`backtest failed: ${(error as Error).message}\n`);
    return 1;
  }
}

/** A short plain-text summary for the terminal. */
export function summaryTable(r: BacktestReport): string {
  const lines = [
    `${r.symbol} ${r.from} → ${r.to}, bar ${r.barMs / 60_000}m, basket ${r.basket.join(',')}, funding ${r.funding}, ${r.elapsedMs} ms`,
    'horizon forecaster     n       hit±se        brierSk   ECE     CRPSsk(ewma) cov80  cov90  DM(p)',
  ];
  for (const [h, hr] of Object.entries(r.horizons)) {
    if (!hr) continue;
    for (const [name, m] of Object.entries(hr.forecasters)) {
      lines.push(
        [
          h.padEnd(7),
          name.padEnd(14),
          String(m.count).padEnd(7),
          `${(100 * m.hitRate).toFixed(2)}±${(100 * m.hitRateSE).toFixed(2)}`.padEnd(13),
          m.brierSkill.toFixed(4).padStart(8),
          m.ece.toFixed(4).padStart(7),
          m.crpsSkillVsEwma.toFixed(4).padStart(12),
          m.coverage80.toFixed(3).padStart(6),
          m.coverage90.toFixed(3).padStart(6),
          `${m.dieboldMarianoVsRandomWalk.statistic.toFixed(2)}(${m.dieboldMarianoVsRandomWalk.pValue.toFixed(3)})`.padStart(
            12,
          ),
        ].join(' '),
      );
    }
    if (hr.leakage) {
      const s = hr.leakage.shuffled;
      const d = hr.leakage.shiftedOneDay;
      lines.push(
        `${h.padEnd(7)} leakage: shuffled hit ${(100 * s.hitRate).toFixed(2)} brierSk ${s.brierSkill.toFixed(4)} crpsSk ${s.crpsSkillVsEwma.toFixed(4)}; shifted 1d hit ${(100 * d.hitRate).toFixed(2)} brierSk ${d.brierSkill.toFixed(4)} crpsSk ${d.crpsSkillVsEwma.toFixed(4)}`,
      );
    }
  }
  return lines.join('\n');
}
