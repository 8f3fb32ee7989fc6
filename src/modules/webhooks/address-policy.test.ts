import { describe, expect, it } from 'vitest';
import { createAddressPolicy } from './address-policy.ts';

describe('webhook address policy', () => {
  const policy = createAddressPolicy([]);

  it.each([
    ['::7f00:1', /embeds 127\.0\.0\.1, a loopback address/],
    ['::127.0.0.1', /127\.0\.0\.1.*loopback address/],
    ['::a9fe:a9fe', /embeds 169\.254\.169\.254/],
    ['::a00:1', /embeds 10\.0\.0\.1, a private address/],
    ['::ffff:127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::1', /loopback/],
    ['::', /unspecified/],
  ])('refuses %s, IPv6 forms that carry an internal IPv4 address included', (address, reason) => {
    expect(policy.refusal(address)).toMatch(reason);
  });

  it('lets public unicast through, and the allow-list admits an embedded loopback it names', () => {
    expect(policy.refusal('93.184.216.34')).toBeUndefined();
    expect(policy.refusal('2606:4700:4700::1111')).toBeUndefined();
    expect(createAddressPolicy(['127.0.0.1/32']).refusal('::7f00:1')).toBeUndefined();
  });
});
