import type { PredictionDatapoint } from '../../src/modules/predictions/index.ts';
// The refresh both push servers send: 7 symbols × 3 horizons, the documented datapoint fields (≈ 5 KB as JSON).
const symbols = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'];
const horizons = ['15m', '1h', '6h'] as const;

export function refreshDatapoints(generatedAt: string): PredictionDatapoint[] {
  return symbols.flatMap((symbol, i) =>
    horizons.map((horizon, j) => ({
      symbol,
      horizon,
      prediction: 1000 * (i + 1) + j + 0.123456,
      baseline: 1000 * (i + 1),
      expectedMovePct: 0.4123 + j / 10,
      confidence: 0.6123,
      factors: { orderflow: 0.31, funding: 0.12, macro: 0.22, ai_residual: 0.35 },
      generatedAt,
    })),
  );
}

const fanouts: number[] = [];
/** Records how long one refresh took on the server: serialize + hand the bytes to every socket (ms). */
export function timeFanout(fn: () => unknown) {
  const start = performance.now();
  fn();
  fanouts.push(performance.now() - start);
}
/** Records a fan-out timed elsewhere (a sliced fan-out ends turns after its publish). */
export function recordFanout(ms: number) {
  fanouts.push(ms);
}

/** Target process protocol: `process.send` ready info; answers `{ cmd: 'cpu' }` with its CPU time. */
export function answerCpu(extra: () => object = () => ({})) {
  process.on('message', (m: { cmd?: string }) => {
    if (m?.cmd === 'cpu') {
      const u = process.cpuUsage();
      process.send!({
        cpu: (u.user + u.system) / 1000,
        at: performance.now(),
        fanout: fanouts.splice(0),
        ...extra(),
      });
    }
  });
  process.on('disconnect', () => process.exit(0));
}
