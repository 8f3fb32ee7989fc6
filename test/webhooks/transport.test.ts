import type { lookup as dnsLookup } from 'node:dns';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGuardedTransport } from '../../src/adapters/webhooks/transport.ts';
import { createAddressPolicy } from '../../src/modules/webhooks/index.ts';
import { type Receiver, startReceiver } from './harness.ts';

/** A DNS that answers loopback for every name: what a rebinding attacker's server does at connect time. */
const loopbackDns = ((_host: string, options: { all?: boolean }, callback: (...args: unknown[]) => void) => {
  if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
  else callback(null, '127.0.0.1', 4);
}) as unknown as typeof dnsLookup;

const send = (transport: ReturnType<typeof createGuardedTransport>, url: string) =>
  transport.send({ url, headers: { 'content-type': 'application/json' }, body: '{}' });

describe('the delivery transport checks addresses at connect time', () => {
  let receiver: Receiver;
  beforeAll(async () => {
    receiver = await startReceiver();
  });
  afterAll(() => receiver.close());

  it('refuses a name that resolves to loopback when connecting (DNS rebinding), sending nothing', async () => {
    const transport = createGuardedTransport({
      policy: createAddressPolicy([]),
      timeoutMs: 2_000,
      lookup: loopbackDns,
    });
    const before = receiver.received.length;
    const result = await send(transport, `http://rebind.example:${receiver.port}/hook`);
    expect(result).toMatchObject({ kind: 'refused' });
    expect((result as { error: string }).error).toMatch(
      /rebind\.example resolves to 127\.0\.0\.1 is a loopback address/,
    );
    expect(receiver.received.length).toBe(before);
    await transport.close();
  });

  it.each([
    ['127.0.0.1', /loopback/],
    ['[::ffff:127.0.0.1]', /127\.0\.0\.1 is a loopback address/],
    ['[::1]', /loopback/],
    ['2130706433', /loopback/],
  ])('refuses the literal %s before connecting', async (host, reason) => {
    const transport = createGuardedTransport({ policy: createAddressPolicy([]), timeoutMs: 2_000 });
    const before = receiver.received.length;
    const result = await send(transport, `http://${host}:${receiver.port}/hook`);
    expect(result.kind).toBe('refused');
    expect((result as { error: string }).error).toMatch(reason);
    expect(receiver.received.length).toBe(before);
    await transport.close();
  });

  it('delivers to loopback when the operator allows its CIDR or its host name', async () => {
    for (const allow of [['127.0.0.0/8'], ['rebind.example']]) {
      const transport = createGuardedTransport({
        policy: createAddressPolicy(allow),
        timeoutMs: 2_000,
        lookup: loopbackDns,
      });
      const result = await send(transport, `http://rebind.example:${receiver.port}/hook`);
      expect(result).toMatchObject({ kind: 'response', statusCode: 204 });
      await transport.close();
    }
  });

  it('does not follow redirects and gives up after the timeout', async () => {
    const target = await startReceiver();
    const slow = await startReceiver();
    const redirecting = await startReceiver();
    redirecting.respond = () => ({ status: 307, headers: { location: target.url } });
    // An endpoint slower than the 300 ms timeout is the subject: it answers only after 1.5 s.
    slow.respond = () => new Promise((done) => setTimeout(() => done({ status: 200 }), 1_500));
    const transport = createGuardedTransport({ policy: createAddressPolicy(['127.0.0.1']), timeoutMs: 300 });
    const redirected = await send(transport, redirecting.url);
    expect(redirected).toMatchObject({ kind: 'response', statusCode: 307, location: target.url });
    expect(target.received).toHaveLength(0);
    const timedOut = await send(transport, slow.url);
    expect(timedOut).toMatchObject({ kind: 'timeout' });
    await transport.close();
    for (const r of [target, slow, redirecting]) await r.close();
  });
});
