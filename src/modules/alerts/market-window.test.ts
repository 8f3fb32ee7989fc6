import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MarketWindows } from './market-window.ts';

const MINUTE = 60_000;
const T0 = Date.UTC(2026, 0, 1);

describe('MarketWindows', () => {
  it('windowed quote volume equals the plain sum of the bars in the window, whatever the order bars arrive in', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            fc.record({
              kind: fc.constant('bar' as const),
              minute: fc.integer({ min: 0, max: 40 }),
              qv: fc.integer({ min: 0, max: 1000 }),
            }),
            fc.record({
              kind: fc.constant('open' as const),
              minute: fc.integer({ min: 0, max: 40 }),
              qv: fc.integer({ min: 0, max: 1000 }),
            }),
          ),
          { maxLength: 60 },
        ),
        fc.constantFrom(5, 15),
        (ops, windowMinutes) => {
          const w = new MarketWindows();
          const closed = new Map<number, number>();
          let open: { minute: number; qv: number } | undefined;
          let openMinute = 0;
          for (const op of ops) {
            if (op.kind === 'bar') {
              w.addClosed('X', { openTime: T0 + op.minute * MINUTE, close: 1, quoteVolume: op.qv });
              closed.set(op.minute, op.qv);
            } else {
              // The bar in progress only moves forward.
              openMinute = Math.max(openMinute, op.minute);
              open = { minute: openMinute, qv: op.qv };
              w.setOpen('X', { openTime: T0 + openMinute * MINUTE, close: 1, quoteVolume: op.qv });
            }
            const current = open?.minute ?? 0;
            const at = T0 + current * MINUTE + 1000;
            let expected = open ? open.qv : 0;
            for (let m = current - windowMinutes + 1; m < current; m++) expected += closed.get(m) ?? 0;
            expect(w.quoteVolume('X', windowMinutes * MINUTE, at)).toBe(expected);
          }
        },
      ),
    );
  });

  it('change over a window compares with the close of the bar in progress that long ago', () => {
    const w = new MarketWindows();
    for (let m = 0; m < 20; m++)
      w.addClosed('X', { openTime: T0 + m * MINUTE, close: 100 + m, quoteVolume: 1 });
    const at = T0 + 20 * MINUTE + 30_000;
    expect(w.changePct('X', 5 * MINUTE, 121, at)).toBeCloseTo((100 * (121 - 115)) / 115, 10);
    expect(w.changePct('X', 60 * MINUTE, 121, at)).toBeUndefined();
  });
});
