import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { runBacktestCommand } from '../../src/main/backtest-command.ts';
import type { BacktestReport } from '../../src/modules/predictions/backtest/report.ts';
import { checkTuning } from '../../src/modules/predictions/index.ts';
import { sharedDataPresent } from '../harness/shared-data.ts';

const SPOT = '../shared/data/market/binance-spot-2021/BTC_USDT-5m.json';
const have = sharedDataPresent('backtest design-variant tests', SPOT);

describe('design switches given to the backtester (`--tuning`)', () => {
  it('accepts known switches with values of the right type and names what is wrong otherwise', () => {
    expect(checkTuning({ binWindowMs: 864_000_000, mondrian: false }, 'x')).toEqual({
      binWindowMs: 864_000_000,
      mondrian: false,
    });
    expect(() => checkTuning({ binWindow: 1 }, '--tuning.6h')).toThrow(
      /--tuning.6h: unknown switch binWindow/,
    );
    expect(() => checkTuning({ mondrian: 'no' }, '--tuning.6h')).toThrow(
      '--tuning.6h.mondrian: expected a boolean, got "no"',
    );
    expect(() => checkTuning({ binWindowMs: null }, 'x')).toThrow(
      'x.binWindowMs: expected a number, got null',
    );
    expect(() => checkTuning([1], 'x')).toThrow('x: expected an object of design switches');
  });

  describe.skipIf(!have)('on a short real slice', () => {
    let dir: string;
    const stderr = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    const stdout = vi.spyOn(process.stdout, 'write').mockImplementation(() => true);
    beforeAll(async () => {
      dir = await mkdtemp(join(tmpdir(), 'meridian-tuning-'));
    });
    afterAll(async () => {
      stderr.mockRestore();
      stdout.mockRestore();
      await rm(dir, { recursive: true, force: true });
    });
    const run = (out: string, ...extra: string[]) =>
      runBacktestCommand([
        ...['--candles', SPOT, '--symbol', 'BTCUSDT', '--horizons', '15m'],
        ...['--from', '2021-01-03T00:00:00Z', '--to', '2021-01-07T00:00:00Z', '--out', join(dir, out)],
        ...extra,
      ]);

    it('runs the variant, records it in the report and says so; the production run records none', async () => {
      expect(await run('prod.json')).toBe(0);
      const variant = { '15m': { aciGammaFloorPerHour: 0.5 } };
      expect(await run('variant.json', '--tuning', JSON.stringify(variant))).toBe(0);
      const prod = JSON.parse(await readFile(join(dir, 'prod.json'), 'utf8')) as BacktestReport;
      const changed = JSON.parse(await readFile(join(dir, 'variant.json'), 'utf8')) as BacktestReport;
      expect(prod.tuning).toBeUndefined();
      expect(changed.tuning).toEqual(variant);
      const printed = stdout.mock.calls.map((c) => String(c[0])).join('');
      expect(printed).toContain(
        'design variant, not the production model: {"15m":{"aciGammaFloorPerHour":0.5}}',
      );
      // The switch reached the engine: a 200× faster ACI floor moves the intervals.
      const cov = (r: BacktestReport) => r.horizons['15m']!.forecasters.ensemble.coverage80;
      expect(cov(changed)).not.toBe(cov(prod));
    });

    it('refuses a bad variant before running, naming the key', async () => {
      expect(await run('bad.json', '--tuning', '{"2h":{}}')).toBe(1);
      expect(await run('bad.json', '--tuning', 'not json')).toBe(1);
      const printed = stderr.mock.calls.map((c) => String(c[0])).join('');
      expect(printed).toContain('--tuning: expected keys "all" or 15m, 1h, 6h, got 2h');
      expect(printed).toContain('--tuning: not JSON: not json');
    });
  });
});
