import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Sense, ThresholdIndex } from './threshold-index.ts';

interface Rule {
  id: number;
  sense: Sense;
  threshold: number;
}

function build(rules: Rule[], inclusive: boolean) {
  const index = new ThresholdIndex<Rule>({ inclusive });
  for (const r of rules) index.add(r.sense, r.threshold, r);
  return index;
}

const rulesArb = fc.array(
  fc.record({ sense: fc.constantFrom<Sense>('up', 'down'), threshold: fc.integer({ min: 0, max: 20 }) }),
  { maxLength: 40 },
);

describe('ThresholdIndex', () => {
  it('visits exactly the rules whose condition flips between two values (against a full scan)', () => {
    fc.assert(
      fc.property(
        rulesArb,
        fc.integer({ min: -2, max: 22 }),
        fc.integer({ min: -2, max: 22 }),
        fc.boolean(),
        (specs, from, to, inclusive) => {
          const rules = specs.map((s, id) => ({ ...s, id }));
          const index = build(rules, inclusive);
          const visited = new Map<number, boolean>();
          index.moved(from, to, (rule, holdsNow) => {
            expect(visited.has(rule.id)).toBe(false);
            visited.set(rule.id, holdsNow);
          });
          const expected = new Map<number, boolean>();
          for (const r of rules) {
            const before = index.holds(r.sense, r.threshold, from);
            const after = index.holds(r.sense, r.threshold, to);
            if (before !== after) expected.set(r.id, after);
          }
          expect(visited).toEqual(expected);
        },
      ),
    );
  });

  it('lists the rules that hold at a value (against a full scan)', () => {
    fc.assert(
      fc.property(rulesArb, fc.integer({ min: -2, max: 22 }), fc.boolean(), (specs, value, inclusive) => {
        const rules = specs.map((s, id) => ({ ...s, id }));
        const index = build(rules, inclusive);
        const seen: number[] = [];
        index.holdingAt(value, (r) => seen.push(r.id));
        const expected = rules.filter((r) => index.holds(r.sense, r.threshold, value)).map((r) => r.id);
        expect(seen.sort((a, b) => a - b)).toEqual(expected);
      }),
    );
  });

  it('is strict by default and inclusive on request', () => {
    const strict = new ThresholdIndex<string>();
    expect(strict.holds('up', 100, 100)).toBe(false);
    expect(strict.holds('up', 100, 100.01)).toBe(true);
    expect(strict.holds('down', 100, 100)).toBe(false);
    const inclusive = new ThresholdIndex<string>({ inclusive: true });
    expect(inclusive.holds('up', 100, 100)).toBe(true);
    expect(inclusive.holds('down', 100, 100)).toBe(true);
  });

  it('removes one item among equal thresholds and keeps the others', () => {
    const index = new ThresholdIndex<string>();
    index.add('up', 5, 'a');
    index.add('up', 5, 'b');
    index.add('up', 5, 'c');
    expect(index.remove('up', 5, 'b')).toBe(true);
    expect(index.remove('up', 5, 'b')).toBe(false);
    const seen: string[] = [];
    index.moved(0, 10, (item) => seen.push(item));
    expect(seen).toEqual(['a', 'c']);
    expect(index.size).toBe(2);
  });

  it('touches only the rules between the old and the new value among many', () => {
    const index = new ThresholdIndex<number>();
    for (let i = 0; i < 10_000; i++) index.add(i % 2 ? 'up' : 'down', 50_000 + i, i);
    let visits = 0;
    index.moved(50_100, 50_110, () => visits++);
    expect(visits).toBe(10);
  });
});
