import { get, percentile, round2, timed } from './http.ts';
import { cpuTicks, sleep, status } from './proc.ts';

type Readiness = { components: Record<string, { status: string; details?: Record<string, number> }> };

export interface Settled {
  historyReadySeconds: number | null;
  settledSeconds: number | null;
  /** Symbols forecast when the measurement began (all of them once settled). */
  warmSymbols: number;
}

/**
 * Waits (at most `maxSeconds` from launch) until start-up work is done: every symbol forecast (the model as
 * `port` reports it) and history ok on each of `historyPorts` (the processes that run the market).
 */
export async function settle(
  port: number,
  symbols: number,
  launched: number,
  maxSeconds: number,
  historyPorts = [port],
): Promise<Settled> {
  const out: Settled = { historyReadySeconds: null, settledSeconds: null, warmSymbols: 0 };
  const components = async (p: number) =>
    get(p, '/readyz').then(
      (res) => (JSON.parse(res.body) as Readiness).components,
      () => undefined,
    );
  while (Date.now() - launched < maxSeconds * 1000) {
    const histories = await Promise.all(historyPorts.map(async (p) => (await components(p))?.history));
    const historyDone = histories.every((h) => h?.status === 'ok');
    if (historyDone && out.historyReadySeconds === null)
      out.historyReadySeconds = (Date.now() - launched) / 1000;
    const model = (await components(port))?.model;
    out.warmSymbols = model?.status === 'ok' ? symbols : (model?.details?.warmSymbols ?? 0);
    if (historyDone && model?.status === 'ok') {
      out.settledSeconds = (Date.now() - launched) / 1000;
      break;
    }
    await sleep(500);
  }
  return out;
}

export interface ProcessFigures {
  role: string;
  peakRssMb: number;
  steadyRssMb: number;
  idleCpuPercent: number;
}

/** Idles `seconds`, then each process's steady RSS and its CPU over the idle stretch (share of one core). */
export async function idle(
  pids: Array<{ role: string; pid: number }>,
  seconds: number,
): Promise<ProcessFigures[]> {
  const before = pids.map((p) => cpuTicks(p.pid));
  await sleep(seconds * 1000);
  return pids.map((p, i) => ({
    role: p.role,
    peakRssMb: 0,
    steadyRssMb: Math.round(status(p.pid, 'VmRSS:') / 1024),
    idleCpuPercent: Math.round(((cpuTicks(p.pid) - before[i]!) / 100 / seconds) * 1000) / 10,
  }));
}

export interface Answers {
  ingestLagMs: number;
  marketDataP50Ms: number;
  marketDataP99Ms: number;
  historyP50Ms: number;
  historyP99Ms: number;
}

/** Ingest lag (now minus `Meridian-As-Of`) and `market-data` / `market-history` latencies, 300 GETs each. */
export async function answers(port: number, token: string): Promise<Answers> {
  const lags: number[] = [];
  for (let i = 0; i < 50; i++) {
    const res = await get(port, '/api/market-data?limit=1', token);
    lags.push(Date.now() - Date.parse(String(res.headers['meridian-as-of'])));
    await sleep(20);
  }
  const universe = (
    JSON.parse((await get(port, '/api/market-data?limit=500', token)).body) as {
      data: Array<{ symbol: string }>;
    }
  ).data.map((d) => d.symbol);
  const marketData = await timed(300, () => '/api/market-data', port, token);
  let k = 0;
  const history = await timed(
    300,
    () => {
      const symbol = universe[(k++ * 7919) % universe.length]!;
      const to = Date.now() - ((k * 104_729) % (5 * 86_400_000));
      return `/api/market-history?symbol=${symbol}&interval=1m&limit=500&to=${to}`;
    },
    port,
    token,
  );
  return {
    ingestLagMs: Math.round(percentile(lags, 50)),
    marketDataP50Ms: round2(percentile(marketData, 50)),
    marketDataP99Ms: round2(percentile(marketData, 99)),
    historyP50Ms: round2(percentile(history, 50)),
    historyP99Ms: round2(percentile(history, 99)),
  };
}

/** The duration of a model refresh that began after start-up work was done (null: none within 3 minutes). */
export async function refreshAfter(port: number, launched: number, settledSeconds: number | null) {
  const settledAt = Date.now();
  while (settledSeconds !== null && Date.now() - settledAt < 180_000) {
    const details = (JSON.parse((await get(port, '/readyz')).body) as Readiness).components.model?.details;
    const sinceSettled = (Date.now() - launched) / 1000 - settledSeconds;
    if (details?.lastRefreshAgeSeconds !== undefined && details.lastRefreshAgeSeconds < sinceSettled - 1)
      return details.lastRefreshDurationMs ?? null;
    await sleep(1000);
  }
  return null;
}

/** Polls `/readyz` until 200; seconds from launch. `onPoll` samples whatever the caller tracks meanwhile. */
export async function ready(port: number, launched: number, alive: () => void, onPoll?: () => void) {
  for (;;) {
    onPoll?.();
    alive();
    const res = await get(port, '/readyz').catch(() => undefined);
    if (res?.status === 200) return (Date.now() - launched) / 1000;
    await sleep(100);
  }
}
