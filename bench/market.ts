import { simulatedSource } from '../src/adapters/market/simulated/index.ts';
import { MarketEngine } from '../src/modules/market/engine.ts';
import type { MarketEvent } from '../src/modules/market/index.ts';
import { DEFAULT_SYMBOLS } from '../src/modules/identifiers/index.ts';
import { captureResponse, compare, printTable, startTarget, stopTarget } from './lib.ts';

/**
 * Market data benchmarks.
 * 1. Ingest: normalized events (book deltas of ~60 levels, book snapshots, trades, funding from the simulated
 *    market: 7 symbols × 4 venues) through the engine — books, 1m candles and roll-ups, trade flow, 24 h
 *    windows — with the aggregation tick (consolidation, depth, slippage, snapshots) every 250 ms of event
 *    time, on one core. Target ≥ 200,000 events/s.
 * 2. GET /api/market-data (the real app, all symbols, default notional) against raw node:http sending the
 *    same bytes. Target ≥ 0.7.
 */
export async function run() {
  const ingest = benchIngest();
  console.log('\nMarket ingest — one core, events through books, candles and the 250 ms aggregation tick');
  console.log('| events | book levels carried | seconds | events/s | ticks |');
  console.log('|---|---|---|---|---|');
  console.log(
    `| ${ingest.events} | ${ingest.levels} | ${ingest.seconds.toFixed(2)} | ${Math.round(ingest.perSecond)} | ${ingest.ticks} |`,
  );
  const http = await benchHttp();
  return {
    ingestEventsPerSec: Math.round(ingest.perSecond),
    marketDataRatio: http.ratio,
    routeRatio: http.routeRatio,
  };
}

function benchIngest() {
  const start = Date.UTC(2026, 0, 5);
  const source = simulatedSource({ symbols: DEFAULT_SYMBOLS, seed: 1, clock: { now: () => start } });
  const events: MarketEvent[] = [];
  const tickMs = 250;
  const ticks = 2_400; // 10 minutes of market time
  const boundaries: number[] = [];
  for (let i = 0; i < ticks; i++) {
    source.tickAt(start + i * tickMs, (e) => events.push(e));
    boundaries.push(events.length);
  }
  let levels = 0;
  for (const e of events)
    if (e.kind === 'book_delta' || e.kind === 'book_snapshot') levels += e.bids.length + e.asks.length;
  const runOnce = () => {
    const engine = new MarketEngine({
      symbols: DEFAULT_SYMBOLS,
      venues: source.venues,
      staleMs: 15_000,
      outlierBps: 100,
      notional: 100_000,
      graceMs: 2_000,
      memoryDays: 2,
    });
    let closed = 0;
    engine.onCandleClosed(() => {
      closed++;
    });
    const t0 = performance.now();
    let next = 0;
    for (let i = 0; i < ticks; i++) {
      const end = boundaries[i]!;
      for (; next < end; next++) engine.ingest(events[next]!);
      engine.tick(start + i * tickMs);
    }
    return { seconds: (performance.now() - t0) / 1000, closed };
  };
  runOnce(); // warm-up (JIT)
  const runs = [runOnce(), runOnce(), runOnce()].sort((a, b) => a.seconds - b.seconds);
  const median = runs[1]!;
  return {
    events: events.length,
    levels,
    seconds: median.seconds,
    perSecond: events.length / median.seconds,
    ticks,
  };
}

async function benchHttp() {
  process.env.MERIDIAN_MARKET_HISTORY_DAYS ??= '2';
  const api = await startTarget('bench/targets/api-server.ts', ['--market']);
  const headers = { authorization: `Bearer ${api.info.token}` };
  const sample = await captureResponse(`${api.info.url}/api/market-data`, headers, 'market');
  const body = sample.body;
  const raw = await startTarget('bench/targets/raw-bytes.ts', [sample.bodyFile, sample.headersFile]);
  const route = await startTarget('bench/targets/market-route-bare.ts', []);
  try {
    const [baseline, bare, app] = await compare([
      {
        name: `raw node:http, same response bytes (${body.length} B body)`,
        url: raw.info.url!,
        child: raw.child,
      },
      {
        name: 'market-data route on bare Fastify (no auth/limit hooks)',
        url: route.info.url!,
        child: route.child,
      },
      {
        name: 'Meridian GET /api/market-data (auth + rate limit)',
        url: `${api.info.url}/api/market-data`,
        headers,
        child: api.child,
      },
    ]);
    printTable('Market data endpoint', [baseline!, bare!, app!], baseline!);
    return {
      ratio: app!.requestsPerSec / baseline!.requestsPerSec,
      routeRatio: bare!.requestsPerSec / baseline!.requestsPerSec,
    };
  } finally {
    await Promise.all([stopTarget(api.child), stopTarget(raw.child), stopTarget(route.child)]);
  }
}
