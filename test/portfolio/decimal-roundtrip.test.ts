import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../harness/app.ts';

/** Exact decimal arithmetic for the checks, independent of the library the service uses: BigInt × 10^-18. */
const SCALE = 18;
const toUnits = (text: string) => {
  const [int, frac = ''] = text.split('.');
  return BigInt(int!) * 10n ** BigInt(SCALE) + BigInt(frac.padEnd(SCALE, '0') || '0');
};
const fromUnits = (units: bigint) => {
  const int = units / 10n ** BigInt(SCALE);
  const frac = (units % 10n ** BigInt(SCALE)).toString().padStart(SCALE, '0').replace(/0+$/, '');
  return frac ? `${int}.${frac}` : `${int}`;
};
/** The canonical spelling the API answers with: no leading zeros, no trailing fractional zeros. */
const canonical = (text: string) => fromUnits(toUnits(text));

const decimalText = fc
  .tuple(
    fc.bigInt({ min: 0n, max: 10n ** 15n }),
    fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: 0, maxLength: SCALE }),
    fc.nat({ max: 2 }),
  )
  .map(([int, frac, zeros]) => (frac ? `${'0'.repeat(zeros)}${int}.${frac}` : `${int}`));
const positive = decimalText.filter((t) => toUnits(t) > 0n);

const row = fc.record({
  asset: fc.constantFrom('BTC', 'ETH', 'SOL', 'LTC'),
  quantity: positive,
  costBasis: fc.option(decimalText, { nil: undefined }),
  asNumber: fc.boolean(),
});

describe('exact decimals survive import → holdings → export', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ env: { MERIDIAN_RATE_LIMIT_STANDARD: '100000' } });
  });
  afterAll(async () => t?.close());

  it('for any quantities and costs (JSON numbers and decimal strings alike)', async () => {
    await fc.assert(
      fc.asyncProperty(fc.array(row, { minLength: 1, maxLength: 30 }), async (rows) => {
        const user = await t.user('member');
        // Written by hand so JSON numbers keep every digit on the wire.
        const value = (text: string, asNumber: boolean) =>
          asNumber ? text.replace(/^0+(?=\d)/, '') : JSON.stringify(text);
        const body = `{"rows":[${rows
          .map(
            (r, i) =>
              `{"asset":"${r.asset}","quantity":${value(r.quantity, r.asNumber)},"externalId":"p-${i}"${
                r.costBasis === undefined ? '' : `,"costBasis":${value(r.costBasis, r.asNumber)}`
              }}`,
          )
          .join(',')}]}`;
        const res = await t.app.inject({
          method: 'POST',
          url: '/api/portfolio/import',
          headers: { ...user.auth, 'content-type': 'application/json' },
          payload: body,
        });
        expect(res.statusCode, res.body).toBe(201);

        const exported = (
          await t.app.inject({ method: 'GET', url: '/api/portfolio/rows', headers: user.auth })
        ).json().data as Array<{ quantity: string; costBasis: string | null; externalId: string }>;
        expect(exported.map((r) => r.quantity)).toEqual(rows.map((r) => canonical(r.quantity)));
        expect(exported.map((r) => r.costBasis)).toEqual(
          rows.map((r) => (r.costBasis === undefined ? null : canonical(r.costBasis))),
        );

        const { holdings } = (
          await t.app.inject({ method: 'GET', url: '/api/portfolio', headers: user.auth })
        ).json();
        const sums = new Map<string, bigint>();
        for (const r of rows) sums.set(r.asset, (sums.get(r.asset) ?? 0n) + toUnits(r.quantity));
        expect(
          Object.fromEntries(holdings.map((h: { asset: string; quantity: string }) => [h.asset, h.quantity])),
        ).toEqual(Object.fromEntries([...sums].map(([asset, units]) => [asset, fromUnits(units)])));

        // Importing the export again changes nothing.
        const again = await t.app.inject({
          method: 'POST',
          url: '/api/portfolio/import',
          headers: { ...user.auth, 'content-type': 'application/json' },
          payload: JSON.stringify({
            rows: exported.map((r, i) => ({
              asset: rows[i]!.asset,
              quantity: r.quantity,
              costBasis: r.costBasis,
              externalId: r.externalId,
            })),
          }),
        });
        expect(again.json()).toMatchObject({ inserted: 0, updated: 0, unchanged: rows.length });
      }),
      { numRuns: 25 },
    );
  });
});
