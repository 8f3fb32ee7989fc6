import { createWriteStream } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import {
  parseCandleFileName,
  readCandleFile,
  readFundingFile,
  readOpenInterestFile,
} from '../modules/market/index.ts';
import {
  type Bar,
  type BacktestReport,
  type EngineTuning,
  type FundingAblation,
  type LeakageScore,
  type Spread,
  checkTuning,
  reportSvg,
  runBacktestWithFundingAblation,
} from '../modules/predictions/index.ts';
import { HORIZONS, type Horizon, canonicalCandidate, isHorizon } from '../modules/identifiers/index.ts';

const usage = `usage: meridian backtest --candles FILE [--candles FILE …] [--funding FILE] [--open-interest FILE] --symbol S
                         [--from T --to T] [--horizons 15m,1h,6h] [--step 1m|5m|…] --out report.json
                         [--svg report.svg] [--forecasts-out forecasts.jsonl] [--tuning JSON]

Runs the production prediction model walk-forward over recorded candles (freqtrade JSON or CSV
timestamp,open,high,low,close,volume). Extra --candles files form the market basket. T is ISO 8601 or ms.
--step is the time between forecasts (default: the bar size; production refreshes every minute, so run
1-minute candles to evaluate at the deployed cadence). Writes the JSON report and an SVG picture
(reliability diagram on equal-mass bins + coverage over time) next to it; --forecasts-out also writes every
forecast made after the warm-up as the API datapoint with quantiles and outcome, one JSON object a line.
Each horizon also reports its calibrated world: the same calibration metrics for a forecaster that is
exactly right, on 200 paths drawn with the run's own σ and means, so a miss can be told from noise.
--tuning runs a design variant instead of the production model, for side-by-side comparisons
(docs/forecasting.md): a JSON object keyed by horizon (or "all") of engine switches, e.g.
'{"6h":{"binWindowMs":864000000}}'.
--funding (settled rates, [[timeMs, rate, …], …]) and --open-interest ([[timeMs, usd, contracts?], …]) feed the
\`funding\` member as the derivatives module does live; with either, the run is repeated without them and the
report's fundingAblation gives, per horizon, the ensemble's CRPS with and without (Diebold–Mariano) and the
member's walk-forward evidence (b̂, t).`;

const STEP = /^(\d+)([mh])$/;
function parseStep(v: string | undefined): number | undefined {
  if (v === undefined) return undefined;
  const m = STEP.exec(v);
  if (!m) throw new Error(`--step: expected e.g. 1m, 5m or 1h, got ${v}`);
  return Number(m[1]) * (m[2] === 'h' ? 3_600_000 : 60_000);
}

function parseHorizons(v: string): Horizon[] {
  return v.split(',').map((h) => {
    if (!isHorizon(h)) throw new Error(`--horizons: expected some of ${HORIZONS.join(', ')}, got ${h}`);
    return h;
  });
}

function parseTuning(v: string | undefined): {
  tuning?: Partial<EngineTuning>;
  tuningByHorizon?: Partial<Record<Horizon, Partial<EngineTuning>>>;
} {
  if (v === undefined) return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw new Error(`--tuning: not JSON: ${v}`);
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed))
    throw new Error('--tuning: expected an object keyed by horizon or "all"');
  const out: ReturnType<typeof parseTuning> = {};
  const byHorizon: Partial<Record<Horizon, Partial<EngineTuning>>> = {};
  for (const [key, value] of Object.entries(parsed)) {
    if (key === 'all') out.tuning = checkTuning(value, '--tuning.all');
    else if (isHorizon(key)) byHorizon[key] = checkTuning(value, `--tuning.${key}`);
    else throw new Error(`--tuning: expected keys "all" or ${HORIZONS.join(', ')}, got ${key}`);
  }
  if (Object.keys(byHorizon).length) out.tuningByHorizon = byHorizon;
  return out;
}

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
        'open-interest': { type: 'string' },
        symbol: { type: 'string' },
        from: { type: 'string' },
        to: { type: 'string' },
        horizons: { type: 'string' },
        out: { type: 'string' },
        svg: { type: 'string' },
        step: { type: 'string' },
        'forecasts-out': { type: 'string' },
        tuning: { type: 'string' },
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
    const oiPath = values['open-interest'] as string | undefined;
    const openInterest = oiPath
      ? (await readOpenInterestFile(oiPath)).map((p) => ({ time: p.time, usd: p.usd }))
      : undefined;
    const horizons = values.horizons ? parseHorizons(String(values.horizons)) : undefined;
    const jsonlPath = values['forecasts-out'] as string | undefined;
    const jsonl = jsonlPath ? createWriteStream(jsonlPath) : undefined;
    const report = runBacktestWithFundingAblation({
      symbol,
      bars,
      funding,
      openInterest,
      from: parseTime(values.from as string | undefined, 'from'),
      to: parseTime(values.to as string | undefined, 'to'),
      horizons,
      stepMs: parseStep(values.step as string | undefined),
      ...parseTuning(values.tuning as string | undefined),
      onForecast: jsonl ? (d) => jsonl.write(`${JSON.stringify(d)}\n`) : undefined,
    });
    if (jsonl)
      await new Promise<void>((resolve, reject) =>
        jsonl.end((e?: Error | null) => (e ? reject(e) : resolve())),
      );
    await writeFile(out, `${JSON.stringify(report, null, 2)}\n`);
    const svgPath = (values.svg as string | undefined) ?? out.replace(/\.json$/i, '') + '.svg';
    await writeFile(svgPath, reportSvg(report));
    process.stdout.write(
      `${summaryTable(report)}\nreport: ${out}\npicture: ${svgPath}${jsonlPath ? `\nforecasts: ${jsonlPath}` : ''}\n`,
    );
    return 0;
  } catch (error) {
    process.stderr.write(`backtest failed: ${(error as Error).message}\n`);
    return 1;
  }
}

/** A short plain-text summary for the terminal. */
function summaryTable(r: BacktestReport & { fundingAblation?: FundingAblation }): string {
  const lines = [
    `${r.symbol} ${r.from} → ${r.to}, bar ${r.barMs / 60_000}m, step ${r.stepMs / 60_000}m, basket ${r.basket.join(',')}, funding ${r.funding}, ${r.elapsedMs} ms`,
    'horizon forecaster     n       hit±se        ECE(em) skill(ref) DM(p)vsRef     skill(ewma) DM(p)vsEwma   cov80  cov80 by σ tercile  flat  conf sd',
  ];
  if (r.tuning) lines.unshift(`design variant, not the production model: ${JSON.stringify(r.tuning)}`);
  const dm = (d: { statistic: number; pValue: number }) =>
    `${d.statistic.toFixed(2)}(${d.pValue.toFixed(3)})`;
  for (const [h, hr] of Object.entries(r.horizons)) {
    if (!hr) continue;
    lines.push(
      `${h.padEnd(7)} warm-up dropped ${hr.warmupDropped}, unscored ${hr.unscored}, ACI adaptation ${hr.aciAdaptationPerHour.toFixed(5)}/h, σ slope ${hr.finalSigmaSlope.toFixed(3)}, shrinkage ${Object.entries(
        hr.finalShrinkage,
      )
        .map(([k, v]) => `${k} ${v.toFixed(2)}`)
        .join(' ')}`,
    );
    for (const [name, m] of Object.entries(hr.forecasters)) {
      lines.push(
        [
          h.padEnd(7),
          name.padEnd(14),
          String(m.count).padEnd(7),
          `${(100 * m.hitRate).toFixed(2)}±${(100 * m.hitRateSE).toFixed(2)}`.padEnd(13),
          m.eceEqualMass.toFixed(4).padStart(7),
          (100 * m.crpsSkillVsReference).toFixed(3).padStart(9),
          dm(m.dieboldMarianoVsReference).padStart(13),
          (100 * m.crpsSkillVsEwma).toFixed(3).padStart(11),
          dm(m.dieboldMarianoVsEwma).padStart(13),
          m.coverage80.toFixed(3).padStart(6),
          m.coverage80BySigmaTercile
            .map((c) => c.toFixed(3))
            .join('/')
            .padStart(19),
          m.shareFlat.toFixed(3).padStart(6),
          m.confidence.sd.toFixed(4).padStart(8),
        ].join(' '),
      );
    }
    if (hr.leakage) {
      const s = hr.leakage.shuffled;
      const d = hr.leakage.shiftedOneDay;
      const f = (x: LeakageScore) =>
        `hit ${(100 * x.hitRate).toFixed(2)} brierSk ${x.brierSkill.toFixed(4)} crpsSk(ewma) ${x.crpsSkillVsEwma.toFixed(4)} crpsSk(ref) ${x.crpsSkillVsReference.toFixed(4)}`;
      lines.push(`${h.padEnd(7)} leakage: shuffled ${f(s)}; shifted 1d ${f(d)}`);
    }
    const level = (c: { meanProbability: number; frequency: number; eceEqualMass: number }) =>
      `${c.meanProbability.toFixed(3)}/${c.frequency.toFixed(3)}/${c.eceEqualMass.toFixed(3)}`;
    lines.push(
      `${h.padEnd(7)} levels (σ: P̄/freq/ECE(em)) end above ${hr.levels.map((l) => `${l.sigmas} ${level(l.endAbove)}`).join(', ')}`,
      `${h.padEnd(7)} levels (σ: P̄/freq/ECE(em)) touch ${hr.levels
        .filter((l) => l.touch)
        .map((l) => `${l.sigmas} ${level(l.touch!)}`)
        .join(', ')}`,
    );
    if (hr.strongReferences) {
      const vs = Object.entries(hr.strongReferences.versus).map(
        ([name, c]) => `${name} ${(100 * c.ensembleSkill).toFixed(3)} % DM ${dm(c.dieboldMariano)}`,
      );
      lines.push(`${h.padEnd(7)} ensemble CRPS skill vs ${vs.join('; ')}`);
    }
    const w = hr.calibratedWorld;
    if (w) {
      const sp = (x: Spread) => `${x.median.toFixed(3)} [${x.p5.toFixed(3)}, ${x.p95.toFixed(3)}]`;
      const pct = (x: number) => `${Math.round(100 * x)} %`;
      lines.push(
        `${h.padEnd(7)} calibrated world (${w.replications} draws, ${w.independentOutcomes.toFixed(0)} independent outcomes): ECE(em) ${sp(w.eceEqualMass)} ≤ 0.03 in ${pct(w.meets.eceEqualMass)}; cov80 ${sp(w.coverage80)} in band in ${pct(w.meets.coverage80)}; by σ tercile ${w.coverage80BySigmaTercile.map(sp).join(' / ')}, all three in band in ${pct(w.meets.coverage80EveryTercile)}; hit ${sp(w.hitRate)}`,
      );
    }
  }
  if (r.fundingAblation) lines.push(...ablationLines(r.fundingAblation));
  return lines.join('\n');
}

/** The funding member's out-of-sample contribution, one line per horizon. */
function ablationLines(a: FundingAblation): string[] {
  const used = [a.inputs.funding && 'funding', a.inputs.openInterest && 'open interest'].filter(Boolean);
  const lines = [
    `funding member (${used.join(' + ')}): ensemble with vs without; skill % = 1 − CRPS(with)/CRPS(without)`,
    'horizon n       inputs  skill%   DM(p)           vsRef% with/without  vsEwma% with/without  b̂      t      shrink weight',
  ];
  for (const [h, c] of Object.entries(a.horizons)) {
    if (!c) continue;
    lines.push(
      [
        h.padEnd(7),
        String(c.count).padEnd(7),
        c.shareWithInputs.toFixed(2).padStart(6),
        c.skillPct.toFixed(3).padStart(7),
        `${c.dieboldMariano.statistic.toFixed(2)}(${c.dieboldMariano.pValue.toFixed(3)})`.padStart(14),
        `${c.withVsReferencePct.toFixed(3)}/${c.withoutVsReferencePct.toFixed(3)}`.padStart(20),
        `${c.withVsEwmaPct.toFixed(3)}/${c.withoutVsEwmaPct.toFixed(3)}`.padStart(21),
        c.memberSlope.toFixed(3).padStart(7),
        c.memberT.toFixed(2).padStart(6),
        c.memberFinalShrinkage.toFixed(2).padStart(6),
        c.memberFinalWeight.toFixed(3).padStart(6),
      ].join(' '),
    );
  }
  return lines;
}
