import { describe, expect, it } from 'vitest';
import { createMarketDataBodies, createMarketDataPages, withNextCursor } from './snapshots.ts';

describe('market-data pages', () => {
  const symbols = ['AUSDT', 'BUSDT', 'CUSDT'];
  function market() {
    const bodies = createMarketDataBodies(symbols);
    let joins = 0;
    const set = (price: number) => {
      for (const s of symbols) bodies.set(s, JSON.stringify({ symbol: s, price }));
      bodies.rebuild();
    };
    set(1);
    const source = {
      marketDataBytes: () => bodies.all(),
      marketDataBody: (list: readonly string[]) => {
        joins++;
        return bodies.bodyOf(list);
      },
    };
    return { source, set, joins: () => joins };
  }

  it('adds nextCursor after data; the whole list is spliced from the all-symbols bytes', () => {
    const { source } = market();
    const pages = createMarketDataPages(source);
    const all = pages.page('all', null).toString();
    expect(JSON.parse(all)).toEqual({
      data: symbols.map((symbol) => ({ symbol, price: 1 })),
      nextCursor: null,
    });
    expect(all).toBe(withNextCursor(source.marketDataBytes().toString(), null));
    expect(JSON.parse(pages.page(['BUSDT'], 'abc').toString())).toEqual({
      data: [{ symbol: 'BUSDT', price: 1 }],
      nextCursor: 'abc',
    });
  });

  it('keeps each page of a snapshot as one buffer until the snapshot changes', () => {
    const { source, set, joins } = market();
    const pages = createMarketDataPages(source);
    const first = pages.page(['AUSDT', 'BUSDT'], 'x');
    expect(pages.page(['AUSDT', 'BUSDT'], 'x')).toBe(first);
    expect(joins()).toBe(1);
    // Same symbols, another cursor: another page.
    expect(pages.page(['AUSDT', 'BUSDT'], null)).not.toBe(first);
    set(2);
    const next = pages.page(['AUSDT', 'BUSDT'], 'x');
    expect(next).not.toBe(first);
    expect(JSON.parse(next.toString()).data[0].price).toBe(2);
  });

  it('keeps at most maxBytes of pages; past that a page is built for its request', () => {
    const { source, joins } = market();
    const pages = createMarketDataPages(source, { maxBytes: 80 });
    const a = pages.page(['AUSDT'], null);
    expect(a.length).toBeLessThanOrEqual(80);
    expect(pages.page(['AUSDT'], null)).toBe(a);
    const b = pages.page(['AUSDT', 'BUSDT', 'CUSDT'], null);
    expect(pages.page(['AUSDT', 'BUSDT', 'CUSDT'], null)).not.toBe(b);
    expect(joins()).toBe(3);
  });
});
