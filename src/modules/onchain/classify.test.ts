import { describe, expect, it } from 'vitest';
import { createAddressBook, parseLabelsCsv } from './address-book.ts';
import { classifyTransfer } from './classify.ts';
import type { RawTransfer } from './ports.ts';

const BIN1 = '0x28c6c06298d514db089934071355e5743bf21d60';
const BIN2 = '0x21a31ee1afc51d94c2efccaa2092ad1028285549';
const CB = '0x71660c4005ba85c37ccec55d0c4493e66fe775d3';
const USER = '0x1111111111111111111111111111111111111111';
const OTHER = '0x2222222222222222222222222222222222222222';

const book = createAddressBook([
  parseLabelsCsv(
    `exchange,address,tag\nbinance,${BIN1},Binance 14\nbinance,${BIN2},Binance 15\ncoinbase,${CB},Coinbase 1\n`,
    {
      source: 't',
    },
  ),
]);
const block = { number: 10, hash: '0xb', timestampMs: 1_700_000_000_000 };
const t = (from: string, to: string, amountRaw = 2_500_000n): RawTransfer => ({
  txHash: '0xt',
  txIndex: 0,
  logIndex: 3,
  from,
  to,
  asset: 'USDT',
  tokenAddress: '0xdac17f958d2ee523a2206206994597c13d831ec7',
  decimals: 6,
  amountRaw,
});

describe('classification', () => {
  it('deposit when only the receiver is labelled', () => {
    const [flow, ...rest] = classifyTransfer(t(USER, BIN1), block, 'ethereum', book, 1);
    expect(rest).toEqual([]);
    expect(flow).toMatchObject({ exchange: 'binance', direction: 'deposit', amount: '2.5', usdValue: 2.5 });
    expect(flow?.to).toEqual({ address: BIN1, exchange: 'binance', tag: 'Binance 14' });
    expect(flow?.from).toEqual({ address: USER, exchange: null, tag: null });
  });

  it('withdrawal when only the sender is labelled', () => {
    expect(
      classifyTransfer(t(CB, USER), block, 'ethereum', book, 1).map((f) => [f.exchange, f.direction]),
    ).toEqual([['coinbase', 'withdrawal']]);
  });

  it('internal between two wallets of one exchange', () => {
    expect(
      classifyTransfer(t(BIN1, BIN2), block, 'ethereum', book, 1).map((f) => [f.exchange, f.direction]),
    ).toEqual([['binance', 'internal']]);
  });

  it('a withdrawal and a deposit between two exchanges', () => {
    expect(
      classifyTransfer(t(BIN1, CB), block, 'ethereum', book, 1).map((f) => [f.exchange, f.direction]),
    ).toEqual([
      ['binance', 'withdrawal'],
      ['coinbase', 'deposit'],
    ]);
  });

  it('nothing between unlabelled addresses or for zero amounts; null USD without a price', () => {
    expect(classifyTransfer(t(USER, OTHER), block, 'ethereum', book, 1)).toEqual([]);
    expect(classifyTransfer(t(USER, BIN1, 0n), block, 'ethereum', book, 1)).toEqual([]);
    expect(classifyTransfer(t(USER, BIN1), block, 'ethereum', book, undefined)[0]?.usdValue).toBeNull();
  });
});
