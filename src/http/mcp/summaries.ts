/**
 * Compact text of a tool's answer, for the model to read: the figures a question is usually about, one line
 * each. The whole answer is in the result's structuredContent; these never invent or round away a value
 * beyond display precision.
 */
type Json = Record<string, unknown>;

const MAX_LINES = 20;
const MAX_GENERIC_CHARS = 2_000;

const asList = (body: unknown, key = 'data'): Json[] =>
  body && typeof body === 'object' && Array.isArray((body as Json)[key])
    ? ((body as Json)[key] as Json[])
    : [];

function num(value: unknown, digits = 2): string {
  if (typeof value !== 'number' || !Number.isFinite(value)) return value == null ? 'n/a' : String(value);
  const abs = Math.abs(value);
  const precision = abs >= 1000 ? digits : abs >= 1 ? Math.max(digits, 4) : 6;
  return String(Number(value.toFixed(precision)));
}

const pct = (value: unknown): string =>
  typeof value === 'number' ? `${value >= 0 ? '+' : ''}${num(value, 2)} %` : 'n/a';

function capped(lines: string[], total: number, noun: string): string {
  const shown = lines.slice(0, MAX_LINES);
  if (total > shown.length) shown.push(`… ${total - shown.length} more ${noun} in structuredContent`);
  return shown.join('\n');
}

function forecastLine(p: Json): string {
  const q = (p.quantiles ?? {}) as Json;
  const interval =
    q.p10 !== undefined && q.p90 !== undefined
      ? `, 80 % interval ${num(q.p10)} – ${num(q.p90)} (p10–p90)`
      : ', no interval (ask include=quantiles)';
  return (
    `${p.symbol} ${p.horizon} forecast ${num(p.prediction)} (baseline ${num(p.baseline)}, ` +
    `${pct(p.expectedMovePct)})${interval}, confidence ${num(p.confidence, 2)}, generated ${p.generatedAt}`
  );
}

export const summaries = {
  forecast(body: unknown): string {
    const points = asList(body);
    if (points.length === 0)
      return 'No forecast yet for this symbol and horizon (the model may still be warming up).';
    // Newest first: the question is nearly always about the current forecast.
    const newestFirst = [...points].reverse();
    return capped(newestFirst.map(forecastLine), points.length, 'forecasts');
  },

  levelProbabilities(body: unknown): string {
    const b = (body ?? {}) as Json;
    const d = (b.datapoint ?? {}) as Json;
    const lines = asList(b, 'levels').map(
      (l) =>
        `${num(l.level)}: ends above ${num(100 * (l.endAbove as number), 1)} %, touched before the horizon ${num(100 * (l.touch as number), 1)} %`,
    );
    return [
      `${b.symbol} ${b.horizon} from the forecast generated ${d.generatedAt} (baseline ${num(d.baseline)}${d.backfilled ? ', backfilled' : ''})`,
      ...lines,
    ].join('\n');
  },

  outlook(body: unknown): string {
    const o = (body ?? {}) as Json;
    const horizons = Object.entries((o.horizons ?? {}) as Record<string, Json>).map(
      ([h, v]) => `${h} ${v.bias} ${pct(v.expectedMovePct)} (confidence ${num(v.confidence, 2)})`,
    );
    const drivers = asList(o, 'drivers')
      .slice(0, 3)
      .map((d) => `${d.factor} ${d.direction}: ${d.reason}`);
    return [
      `${o.symbol ?? 'Market-wide'} outlook: ${o.bias} (score ${num(o.score, 2)}, confidence ${num(o.confidence, 2)}), generated ${o.generatedAt}`,
      horizons.length ? `Horizons: ${horizons.join('; ')}` : '',
      drivers.length ? `Drivers: ${drivers.join('; ')}` : '',
    ]
      .filter(Boolean)
      .join('\n');
  },

  marketData(body: unknown): string {
    const items = asList(body);
    const lines = items.map(
      (m) =>
        `${m.symbol} ${num(m.price)} (24 h ${pct(m.change24hPct)}, spread ${num(m.spreadBps, 2)} bps, ` +
        `quote volume ${num(m.quoteVolume24h, 0)}), updated ${m.updatedAt}`,
    );
    return capped(lines.length ? lines : ['No symbols matched.'], items.length, 'symbols');
  },

  history(body: unknown): string {
    const candles = asList(body);
    if (candles.length === 0) return 'No candles in that span.';
    const first = candles[0]!;
    const last = candles[candles.length - 1]!;
    const high = Math.max(...candles.map((c) => Number(c.high)));
    const low = Math.min(...candles.map((c) => Number(c.low)));
    const meta = body as Json;
    return (
      `${meta.symbol ?? ''} ${meta.interval ?? ''} ${candles.length} candles ${first.timestamp} → ${last.timestamp}: ` +
      `open ${num(first.open)}, last close ${num(last.close)}, high ${num(high)}, low ${num(low)}` +
      (meta.nextCursor ? '; more with nextCursor' : '')
    ).trim();
  },

  flows(body: unknown): string {
    const flows = asList(body);
    const summary = ((body ?? {}) as Json).summary as Record<string, Json> | undefined;
    const totals = (span: string) => {
      const t = summary?.[span];
      return t
        ? `${span} in ${num(t.inflowUsd, 0)} / out ${num(t.outflowUsd, 0)} / net ${num(t.netflowUsd, 0)} USD`
        : '';
    };
    const lines = [
      [totals('1h'), totals('24h')].filter(Boolean).join('; '),
      ...flows.map(
        (f) => `${f.time} ${f.exchange} ${f.direction} ${f.amount} ${f.asset} (${num(f.usdValue, 0)} USD)`,
      ),
    ];
    return capped(lines, flows.length + 1, 'flows');
  },

  rules(body: unknown): string {
    const rules = asList(body);
    const lines = rules.map((r) =>
      `${r.id} ${r.state} ${r.type} ${r.symbol ?? ''} "${r.name}"`.replace(/ {2}/g, ' '),
    );
    return capped(lines.length ? lines : ['No alert rules.'], rules.length, 'rules');
  },

  rule(body: unknown): string {
    const r = (body ?? {}) as Json;
    return `Alert rule ${r.id} "${r.name}" (${r.type}${r.symbol ? ` ${r.symbol}` : ''}) is ${r.state}.`;
  },

  backtest(body: unknown): string {
    const b = (body ?? {}) as Json;
    const t = (b.totals ?? {}) as Json;
    const w = (b.window ?? {}) as Json;
    const d = (b.data ?? {}) as Json;
    const span = t.firings ? ` (first ${t.first}, last ${t.last})` : '';
    return `Backtest ${w.from} → ${w.to}: ${t.firings ?? 0} firings${span}, from ${d.simulated ? 'simulated' : d.source} data.`;
  },

  portfolio(body: unknown): string {
    const p = (body ?? {}) as Json;
    const totals = (p.totals ?? {}) as Json;
    const lines = asList(p, 'holdings').map(
      (h) =>
        `${h.asset} ${h.quantity} = ${h.valueUsd ?? 'unpriced'} USD (${h.allocationPct ?? 'n/a'} %, P&L ${h.unrealizedPnlUsd ?? 'n/a'} USD)`,
    );
    return capped(
      [
        `Total ${totals.valueUsd} USD, unrealized P&L ${totals.unrealizedPnlUsd} USD, prices from ${p.priceSource}`,
        ...lines,
      ],
      lines.length + 1,
      'holdings',
    );
  },

  derivatives(body: unknown): string {
    const items = asList(body);
    if (items.length === 0) return 'No derivatives data for those symbols.';
    const usd = (v: unknown) => `$${num(v, 0)}`;
    return items
      .map((d) => {
        const f = d.funding as Json | null;
        const oi = d.openInterest as Json | null;
        const b = d.basis as Json | null;
        const l = (d.liquidations as Json | null)?.h24 as Json | undefined;
        return [
          `${d.symbol}:`,
          f
            ? `funding ${num(Number(f.rate) * 100, 4)} % per ${f.intervalHours} h (${num(f.annualizedPct)} % a year)`
            : 'funding: not published',
          oi
            ? `open interest ${usd(oi.usd)} (${num(oi.change24hPct)} % in 24 h)`
            : 'open interest: not published',
          b ? `basis ${num(b.bps, 1)} bps` : 'basis: not published',
          l
            ? `liquidations 24 h: longs ${usd(l.longUsd)}, shorts ${usd(l.shortUsd)}`
            : 'liquidations: not streamed',
        ].join(' ');
      })
      .join('\n');
  },

  netflow(body: unknown): string {
    const buckets = asList(body);
    if (buckets.length === 0) return 'No buckets in that span.';
    const sum = (key: string) => buckets.reduce((total, b) => total + Number(b[key] ?? 0), 0);
    const meta = body as Json;
    const gaps = buckets.filter((b) => b.gap === true).length;
    return (
      `${meta.exchange ?? 'all exchanges'} ${meta.asset ?? 'all assets'} ${meta.chain ?? 'all chains'}, ` +
      `${buckets.length} × ${meta.interval}: in $${num(sum('inflowUsd'), 0)}, out $${num(sum('outflowUsd'), 0)}, ` +
      `net $${num(sum('netflowUsd'), 0)} over ${sum('flows')} flows` +
      (gaps ? `; ${gaps} buckets partial (indexer behind or before indexing began)` : '')
    );
  },

  generic(body: unknown): string {
    const text = typeof body === 'string' ? body : JSON.stringify(body);
    return text.length > MAX_GENERIC_CHARS
      ? `${text.slice(0, MAX_GENERIC_CHARS)}… (full answer in structuredContent)`
      : text;
  },
} satisfies Record<string, (body: unknown) => string>;
