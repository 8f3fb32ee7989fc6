import { describe, expect, it } from 'vitest';
import { manualClock } from '../../shared/clock.ts';
import { createMemoryLabelsRepository } from './repository.ts';
import { createLabelsService } from './service.ts';

const A = '0x1111111111111111111111111111111111111111';
const B = '0x2222222222222222222222222222222222222222';

describe('private labels service (memory repository)', () => {
  const make = () =>
    createLabelsService({
      repo: createMemoryLabelsRepository(),
      clock: manualClock(1_700_000_000_000),
      maxPerAccount: 2,
    });

  it('normalises a label, replaces it by chain and address, and keeps accounts apart', async () => {
    const labels = make();
    const first = await labels.save('alice', {
      kind: ' Fund ',
      chain: 'Ethereum',
      address: A.toUpperCase().replace('0X', '0x'),
      name: ' Acme ',
    });
    expect(first).toMatchObject({
      created: true,
      label: { kind: 'fund', chain: 'ethereum', address: A, name: 'Acme' },
    });
    const again = await labels.save('alice', {
      kind: 'exchange',
      chain: 'ethereum',
      address: A,
      name: 'Acme desk',
    });
    expect(again).toMatchObject({
      created: false,
      label: { id: first.label.id, kind: 'exchange', name: 'Acme desk' },
    });
    // The same address on another chain is another label.
    expect(
      (await labels.save('alice', { kind: 'fund', chain: 'bsc', address: A, name: 'Acme' })).created,
    ).toBe(true);
    expect((await labels.list('bob', {})).data).toEqual([]);
    expect(await labels.get('bob', first.label.id)).toBeUndefined();
    await expect(labels.remove('bob', first.label.id)).rejects.toMatchObject({ code: 'not_found' });
    const parties = await labels.forParties('alice', [
      { chain: 'ethereum', address: A },
      { chain: 'polygon', address: A },
    ]);
    expect([...parties.keys()]).toEqual([`ethereum:${A}`]);
    expect((await labels.forParties('bob', [{ chain: 'ethereum', address: A }])).size).toBe(0);
  });

  it('refuses a new label beyond the cap but still replaces, and names every bad field', async () => {
    const labels = make();
    await labels.save('alice', { kind: 'fund', chain: 'ethereum', address: A, name: 'a' });
    await labels.save('alice', { kind: 'fund', chain: 'ethereum', address: B, name: 'b' });
    await expect(
      labels.save('alice', { kind: 'fund', chain: 'bsc', address: B, name: 'c' }),
    ).rejects.toMatchObject({
      code: 'label_limit_reached',
    });
    expect(
      (await labels.save('alice', { kind: 'wallet', chain: 'ethereum', address: B, name: 'b2' })).created,
    ).toBe(false);
    await expect(
      labels.save('alice', { kind: 'x', chain: '!', address: '0x1', name: 'a\u0007' }),
    ).rejects.toMatchObject({
      code: 'validation_failed',
      errors: ['/body/kind', '/body/chain', '/body/address', '/body/name'].map((pointer) =>
        expect.objectContaining({ pointer }),
      ),
    });
  });

  it('pages newest first with a cursor and refuses a cursor it did not issue', async () => {
    const clock = manualClock(1_700_000_000_000);
    const labels = createLabelsService({ repo: createMemoryLabelsRepository(), clock });
    for (let i = 0; i < 5; i++) {
      clock.advance(1000);
      await labels.save('alice', {
        kind: 'wallet',
        chain: 'ethereum',
        address: `0x${String(i).repeat(40)}`,
        name: `w${i}`,
      });
    }
    const one = await labels.list('alice', { limit: 2 });
    const two = await labels.list('alice', { limit: 2, cursor: one.nextCursor ?? '' });
    const three = await labels.list('alice', { limit: 2, cursor: two.nextCursor ?? '' });
    expect([...one.data, ...two.data, ...three.data].map((l) => l.name)).toEqual([
      'w4',
      'w3',
      'w2',
      'w1',
      'w0',
    ]);
    expect(three.nextCursor).toBeNull();
    await expect(labels.list('alice', { cursor: 'zzz' })).rejects.toMatchObject({
      code: 'validation_failed',
    });
  });
});
