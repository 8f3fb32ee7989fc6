import type { WebSocket } from 'ws';
import { afterEach, describe, expect, it } from 'vitest';
import type { Principal } from '../../../modules/accounts/index.ts';
import { type MarketHub, createMarketHub } from './hub.ts';

/** 500 symbols, each with a fragment whose `v` a test moves to change it. */
const UNIVERSE = Array.from({ length: 500 }, (_, i) => `S${i}USDT`);
const version = new Map(UNIVERSE.map((s) => [s, 0]));
const bodyOf = (list: readonly string[]) =>
  `{"data":[${list.map((s) => `{"symbol":"${s}","v":${version.get(s)}}`).join(',')}]}`;

/** A socket stand-in: what the hub sends is kept. */
function fakeSocket() {
  const sent: string[] = [];
  const socket = {
    sent,
    bufferedAmount: 0,
    on: () => socket,
    send: (frame: string) => sent.push(frame),
    close: () => {},
    terminate: () => {},
    ping: () => {},
  };
  return socket;
}

const symbolsOf = (frame: string | undefined) =>
  (JSON.parse(frame ?? '{"data":[]}') as { data: Array<{ symbol: string }> }).data.map((d) => d.symbol);

describe('the /market hub with subscriptions', () => {
  let hub: MarketHub | undefined;
  afterEach(async () => {
    await hub?.close();
  });

  /** A hub over the fake fragments that counts the symbols it joins. */
  function build() {
    const joins: number[] = [];
    hub = createMarketHub(
      {
        slots: {
          acquire: async () => ({ ok: true, held: 0 }),
          release: async () => {},
          renew: async () => {},
        },
        currentBody: () => bodyOf(UNIVERSE),
        bodyOf: (list) => {
          joins.push(list.length);
          return bodyOf(list);
        },
        provenance: () => ({ source: 'simulated', asOf: 0, stale: false }),
        now: () => 0,
        isTokenStillValid: async () => true,
        isSessionStillValid: async () => true,
        log: { warn: () => {} },
      },
      { pingIntervalMs: 3_600_000, maxBufferedBytes: 1 << 30, sweepMs: 3_600_000 },
    );
    const open = (symbols?: readonly string[]) => {
      const socket = fakeSocket();
      hub!.adopt(socket as unknown as WebSocket, {
        principal: { userId: 'usr_a' } as Principal,
        credentialKey: 'token:x',
        connectionId: `c${Math.random()}`,
        symbols,
      });
      return socket;
    };
    return { hub, joins, open };
  }

  it('costs each socket its subscription: one join per distinct subset and snapshot, shared by its sockets', () => {
    const { hub, joins, open } = build();
    const pair = ['S1USDT', 'S7USDT'];
    const ten = UNIVERSE.slice(100, 110);
    const everything = Array.from({ length: 5 }, () => open());
    const pairs = Array.from({ length: 300 }, () => open(pair));
    const tens = Array.from({ length: 200 }, () => open(ten));
    expect(hub.stats()).toEqual({ connections: 505, groups: 3 });
    // On connect: each socket its own subscription's snapshot.
    expect(symbolsOf(everything[0]!.sent[0])).toEqual(UNIVERSE);
    expect(symbolsOf(pairs[0]!.sent[0])).toEqual(pair);
    expect(symbolsOf(tens[0]!.sent[0])).toEqual(ten);

    joins.length = 0;
    for (const s of UNIVERSE) version.set(s, 1);
    hub.publish({ body: bodyOf(UNIVERSE), at: 1 });
    // Two subset groups: two joins, of their own sizes — not one per socket, never the universe.
    expect(joins).toEqual([2, 10]);
    for (const socket of pairs) expect(symbolsOf(socket.sent[1])).toEqual(pair);
    for (const socket of tens) expect(symbolsOf(socket.sent[1])).toEqual(ten);
    for (const socket of everything) expect(symbolsOf(socket.sent[1])).toEqual(UNIVERSE);
    // One frame per group: every socket of a group was handed the very same string.
    expect(new Set(pairs.map((s) => s.sent[1])).size).toBe(1);
    expect(pairs[0]!.sent[1]!.length).toBeLessThan(everything[0]!.sent[1]!.length / 20);
  });

  it('sends a subset only when its own symbols changed, and not twice what a socket got on connect', () => {
    const { hub, open } = build();
    const pair = ['S2USDT', 'S3USDT'];
    const a = open(pair);
    const all = open();
    // The first snapshot after connect equals what each got on connect: nothing is sent.
    hub.publish({ body: bodyOf(UNIVERSE), at: 1 });
    expect([a.sent.length, all.sent.length]).toEqual([1, 1]);
    // Another symbol moves: the universe changes, the pair does not.
    version.set('S400USDT', (version.get('S400USDT') ?? 0) + 1);
    hub.publish({ body: bodyOf(UNIVERSE), at: 2 });
    expect([a.sent.length, all.sent.length]).toEqual([1, 2]);
    version.set('S3USDT', (version.get('S3USDT') ?? 0) + 1);
    hub.publish({ body: bodyOf(UNIVERSE), at: 3 });
    expect([a.sent.length, all.sent.length]).toEqual([2, 3]);
    expect(JSON.parse(a.sent[1]!).data[1]).toEqual({ symbol: 'S3USDT', v: version.get('S3USDT') });
  });

  it('carries derivatives updates: each group its own symbols and their liquidation events, none when it has none', () => {
    const { hub, open } = build();
    const pair = ['S1USDT', 'S2USDT'];
    const a = open(pair);
    const all = open();
    const other = open(['S9USDT']);
    const item = (symbol: string) => ({
      symbol,
      funding: null,
      openInterest: null,
      basis: null,
      liquidations: null,
      venues: [],
      stale: false,
      updatedAt: null,
    });
    hub.publishDerivatives({
      at: 5,
      source: 'simulated',
      simulated: true,
      items: [item('S1USDT'), item('S3USDT')],
      liquidations: [
        {
          venue: 'binance',
          symbol: 'S2USDT',
          side: 'long',
          price: 1,
          size: 1,
          usd: 1,
          time: '1970-01-01T00:00:00.005Z',
        },
      ],
    });
    const frameOf = (socket: { sent: string[] }) => JSON.parse(socket.sent.at(-1)!);
    expect(frameOf(a)).toMatchObject({ type: 'derivatives', simulated: true, source: 'simulated' });
    expect(frameOf(a).data.map((d: { symbol: string }) => d.symbol)).toEqual(['S1USDT']);
    expect(frameOf(a).liquidations.map((l: { symbol: string }) => l.symbol)).toEqual(['S2USDT']);
    expect(frameOf(all).data.map((d: { symbol: string }) => d.symbol)).toEqual(['S1USDT', 'S3USDT']);
    // S9USDT's socket has only its connect snapshot.
    expect(other.sent.length).toBe(1);
  });
});
