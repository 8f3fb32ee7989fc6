import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateToken } from '../../src/modules/accounts/token-format.ts';
import type { PredictionDatapoint } from '../../src/modules/predictions/index.ts';
import { topics } from '../../src/shared/bus.ts';
import { pushHubOf } from '../../src/http/push/predictions/route.ts';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { type Client, connect, refresh, refused, until } from './client.ts';

describe('predictions push channel', () => {
  let t: TestApp;
  let member: TestUser;
  let url: string;
  const allowedOrigin = 'https://console.example.com';
  const open: Client[] = [];
  const client = async (...args: Parameters<typeof connect>) => {
    const c = await connect(...args);
    open.push(c);
    return c;
  };
  // The refresh job publishes the datapoints; clients receive them as `{ data: [...] }`.
  const publish = (payload: { data: PredictionDatapoint[] }) =>
    t.container.bus.publish(topics.predictionsRefreshed, payload.data);

  beforeAll(async () => {
    t = await createTestApp({
      env: {
        MERIDIAN_AUTH_FAILURE_LIMIT: '1000',
        MERIDIAN_WS_ALLOWED_ORIGINS: allowedOrigin,
        MERIDIAN_WS_SEND_BUFFER_BYTES: '65536',
      },
    });
    member = await t.user('member');
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/predictions`;
  });
  afterAll(async () => {
    for (const c of open) c.ws.terminate();
    await t.close();
  });

  describe('handshake', () => {
    it('refuses a missing token with 401 before the upgrade', async () => {
      const r = await refused(url);
      expect(r.status).toBe(401);
      expect(r.headers['www-authenticate']).toMatch(/^Bearer realm="meridian"/);
      expect(r.headers['content-type']).toMatch(/problem\+json/);
      expect(r.body.code).toBe('unauthenticated');
    });

    it('refuses a bad token with 401, in the header or as a subprotocol', async () => {
      const bad = generateToken();
      const viaHeader = await refused(url, { headers: { authorization: `Bearer ${bad}` } });
      expect(viaHeader.status).toBe(401);
      const viaProtocol = await refused(url, { protocols: ['meridian.v1', bad] });
      expect(viaProtocol.status).toBe(401);
      expect((await refused(url, { headers: { authorization: 'Bearer nope' } })).status).toBe(401);
    });

    it('refuses an origin outside the allow-list with 403 and accepts a listed one', async () => {
      const r = await refused(url, { headers: { ...member.auth, origin: 'https://evil.example' } });
      expect(r.status).toBe(403);
      expect(r.body.detail).toContain('https://evil.example');
      const ok = await client(url, { headers: { ...member.auth, origin: allowedOrigin } });
      expect(ok.ws.readyState).toBe(ok.ws.OPEN);
      ok.ws.close();
      await ok.closed;
    });

    it('refuses a token without predictions:read with 403', async () => {
      const narrow = await t.user('member', { permissions: ['market:read'] });
      expect((await refused(url, { headers: narrow.auth })).status).toBe(403);
    });

    it('accepts the token as a Sec-WebSocket-Protocol value and answers with the chosen protocol', async () => {
      const withName = await client(url, { protocols: ['meridian.v1', member.token] });
      expect(withName.ws.protocol).toBe('meridian.v1');
      // Never answered with the token itself: offered alone, it is refused with what to offer instead.
      const tokenOnly = await refused(url, { protocols: [member.token] });
      expect(tokenOnly.status).toBe(400);
      expect(tokenOnly.headers['sec-websocket-protocol']).toBeUndefined();
      withName.ws.close();
      await withName.closed;
    });

    it('answers a plain GET with 426', async () => {
      const res = await t.app.inject({ url: '/predictions', headers: member.auth });
      expect(res.statusCode).toBe(426);
      expect(res.json().code).toBe('upgrade_required');
    });

    it('answers an upgrade request to a REST path as plain HTTP through the usual routes, then closes', async () => {
      const base = url.replace('/predictions', '');
      const toAccount = await refused(`${base}/api/account`, { headers: member.auth });
      expect(toAccount.status).toBe(200);
      expect(toAccount.body.email).toBe(member.email);
      expect(toAccount.headers.connection).toBe('close');
      expect(toAccount.headers['x-request-id']).toBeTruthy();
      const unauthenticated = await refused(`${base}/api/account`);
      expect(unauthenticated.status).toBe(401);
      expect(unauthenticated.body.code).toBe('unauthenticated');
      const nowhere = await refused(`${base}/no-such-socket`, { headers: member.auth });
      expect(nowhere.status).toBe(404);
      expect(nowhere.body.code).toBe('route_not_found');
      // The trailing-slash form of the push path still reaches the push channel.
      const c = await client(`${url}/`, { headers: member.auth });
      expect(c.ws.protocol).toBe('');
    });

    it('normalizes an unsupported symbol like REST, visibly; strict=true refuses it with 400', async () => {
      const c = await client(`${url}?symbol=NOPEUSDT`, { headers: member.auth });
      expect(c.headers['meridian-normalized']).toBe('symbol=NOPEUSDT->BTCUSDT');
      const r = await refused(`${url}?symbol=NOPEUSDT&strict=true`, { headers: member.auth });
      expect(r.status).toBe(400);
      expect(r.body.code).toBe('unsupported_symbol');
      expect(r.body.supported).toContain('ETHUSDT');
    });

    it('charges the handshake as one request; pushes are free', async () => {
      const user = await t.user('viewer');
      const c = await client(url, { headers: user.auth });
      expect(c.headers.ratelimit).toMatch(/r=119;/);
      for (let i = 0; i < 3; i++) {
        await publish(refresh());
        await c.next(() => true, 3_000, i);
      }
      const rest = await t.app.inject({ url: '/api/account', headers: user.auth });
      expect(rest.headers.ratelimit).toMatch(/r=118;/);
      c.ws.close();
      await c.closed;
    });
  });

  describe('messages', () => {
    it('streams every refresh to a default client as { data: [...] }, exactly the published datapoints', async () => {
      const c = await client(url, { headers: member.auth });
      const payload = refresh(['BTCUSDT', 'ETHUSDT', 'SOLUSDT']);
      await publish(payload);
      const message = await c.next();
      expect(Object.keys(message)).toEqual(['data']);
      expect(message).toEqual(payload);
      expect(Object.keys(message.data[0]).sort()).toEqual(
        [
          'baseline',
          'confidence',
          'expectedMovePct',
          'factors',
          'generatedAt',
          'horizon',
          'prediction',
          'symbol',
        ].sort(),
      );
      c.ws.close();
      await c.closed;
    });

    it('narrows by URL query, normalized like REST (and says so in Meridian-Normalized)', async () => {
      const c = await client(`${url}?symbol=eth-usd&horizon=60m`, { headers: member.auth });
      expect(c.headers['meridian-normalized']).toContain('symbol=eth-usd->ETHUSDT');
      expect(c.headers['meridian-normalized']).toContain('horizon=60m->1h');
      await publish(refresh(['BTCUSDT']));
      await publish(refresh(['ETHUSDT', 'SOLUSDT']));
      const message = await c.next();
      expect(message.data.map((d: any) => `${d.symbol} ${d.horizon}`)).toEqual(['ETHUSDT 1h']);
      // The BTC-only refresh had nothing for this client: it sent nothing.
      expect(c.messages).toHaveLength(1);
      c.ws.close();
      await c.closed;
    });

    it('subscribe narrows then widens, unsubscribe narrows, each acknowledged', async () => {
      const c = await client(url, { headers: member.auth });
      c.send({ type: 'subscribe', id: 1, symbols: ['btc/usdt'], horizons: ['1h'] });
      const ack = await c.next((m) => m.type === 'subscribed' && m.id === 1);
      expect(ack.subscription).toEqual({ all: false, pairs: [{ symbol: 'BTCUSDT', horizon: '1h' }] });
      expect(ack.normalized).toEqual([{ param: 'symbol', requested: 'btc/usdt', used: 'BTCUSDT' }]);

      let from = c.messages.length;
      await publish(refresh(['BTCUSDT', 'ETHUSDT']));
      let data = await c.next((m) => 'data' in m, 3_000, from);
      expect(data.data.map((d: any) => `${d.symbol} ${d.horizon}`)).toEqual(['BTCUSDT 1h']);

      c.send({ type: 'subscribe', id: 2, symbols: ['ETHUSDT'] });
      await c.next((m) => m.type === 'subscribed' && m.id === 2);
      from = c.messages.length;
      await publish(refresh(['BTCUSDT', 'ETHUSDT']));
      data = await c.next((m) => 'data' in m, 3_000, from);
      expect(data.data.map((d: any) => `${d.symbol} ${d.horizon}`)).toEqual([
        'BTCUSDT 1h',
        'ETHUSDT 15m',
        'ETHUSDT 1h',
        'ETHUSDT 6h',
      ]);

      c.send({ type: 'unsubscribe', id: 3, symbols: ['BTCUSDT'] });
      const unack = await c.next((m) => m.type === 'unsubscribed' && m.id === 3);
      expect(unack.subscription.pairs).toHaveLength(3);
      from = c.messages.length;
      await publish(refresh(['BTCUSDT', 'ETHUSDT'], ['6h']));
      data = await c.next((m) => 'data' in m, 3_000, from);
      expect(data.data.map((d: any) => `${d.symbol} ${d.horizon}`)).toEqual(['ETHUSDT 6h']);

      // Subscribing to everything again shares the default frame.
      c.send({ type: 'subscribe', id: 4 });
      expect((await c.next((m) => m.id === 4)).subscription.all).toBe(true);
      c.ws.close();
      await c.closed;
    });

    it('answers malformed and unknown messages with an error and keeps the socket open', async () => {
      const c = await client(url, { headers: member.auth });
      c.send('{not json');
      expect(await c.next((m) => m.type === 'error')).toMatchObject({ code: 'malformed_message' });
      c.send({ type: 'dance', id: 'x' });
      expect(await c.next((m) => m.id === 'x')).toMatchObject({
        type: 'error',
        code: 'unknown_message_type',
      });
      c.send({ type: 'subscribe', id: 'y', symbols: ['NOPEUSDT'], strict: true });
      expect(await c.next((m) => m.id === 'y')).toMatchObject({ type: 'error', code: 'unsupported_symbol' });
      c.send({ type: 'subscribe', id: 'z', horizons: 'soon' });
      expect(await c.next((m) => m.id === 'z')).toMatchObject({ type: 'error', code: 'malformed_message' });
      c.ws.send(Buffer.from([1, 2, 3]), { binary: true });
      expect(await c.next((m) => m.code === 'binary_not_supported')).toBeTruthy();
      c.send({ type: 'ping', id: 7 });
      expect(await c.next((m) => m.type === 'pong')).toEqual({ type: 'pong', id: 7 });
      expect(c.ws.readyState).toBe(c.ws.OPEN);
      c.ws.close();
      await c.closed;
    });

    it('closes with 1009 on a message over 4 KB', async () => {
      const c = await client(url, { headers: member.auth });
      c.send({ type: 'subscribe', symbols: ['BTCUSDT'], pad: 'x'.repeat(5_000) });
      expect((await c.closed).code).toBe(1009);
    });
  });

  describe('limits', () => {
    it('allows 5 connections per standard account and refuses the 6th with a reason', async () => {
      const user = await t.user('viewer');
      const five = await Promise.all(Array.from({ length: 5 }, () => client(url, { headers: user.auth })));
      const sixth = await refused(url, { headers: user.auth });
      expect(sixth.status).toBe(429);
      expect(sixth.body.code).toBe('too_many_connections');
      expect(sixth.body.detail).toContain('standard plan allows (5)');
      // Another account is not affected.
      const other = await client(url, { headers: member.auth });
      other.ws.close();
      // Closing one frees its slot.
      five[0]!.ws.close();
      await five[0]!.closed;
      await until(
        async () => {
          try {
            const c = await client(url, { headers: user.auth });
            return !!c;
          } catch {
            return false;
          }
        },
        3_000,
        'a freed slot',
      );
      for (const c of five) c.ws.close();
    });

    it('closes the sockets of a revoked token within 5 seconds (4401)', async () => {
      const user = await t.user('viewer');
      const a = await client(url, { headers: user.auth });
      const b = await client(url, { protocols: ['meridian.v1', user.token] });
      const other = await client(url, { headers: member.auth });
      const started = Date.now();
      await t.container.accounts.revokeToken(user.id, user.tokenId);
      const [ca, cb] = await Promise.all([a.closed, b.closed]);
      expect(Date.now() - started).toBeLessThan(5_000);
      expect(ca).toEqual({ code: 4401, reason: 'token revoked' });
      expect(cb.code).toBe(4401);
      expect(other.ws.readyState).toBe(other.ws.OPEN);
      expect((await refused(url, { headers: user.auth })).status).toBe(401);
      other.ws.close();
    });

    it('closes the sockets of an expired token (4401)', async () => {
      const user = await t.user('viewer');
      const { clock } = t.container;
      const expiring = await t.container.accounts.createToken(user.id, {
        name: 'short',
        expiresAt: clock.now() + 400,
      });
      const c = await client(url, { headers: { authorization: `Bearer ${expiring.token}` } });
      const started = Date.now();
      expect(await c.closed).toEqual({ code: 4401, reason: 'token expired' });
      expect(Date.now() - started).toBeLessThan(3_000);
    });

    it('cuts off a slow consumer (4408) while a healthy client keeps receiving every refresh', async () => {
      const hub = pushHubOf(t.app.server)!;
      const healthy = await client(url, { headers: member.auth });
      const slow = await client(url, { headers: member.auth });
      // The slow client stops reading: its kernel buffers fill, then the server-side queue.
      (slow.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const before = hub.stats.slowConsumers;
      const big = refresh(['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT']);
      big.data = Array.from({ length: 20 }, () => big.data).flat(); // ≈ 100 KB a frame
      let sent = 0;
      while (hub.stats.slowConsumers === before) {
        if (sent >= 400) throw new Error('the slow consumer was never cut off');
        await publish(big);
        sent++;
        await healthy.next(() => true, 5_000, sent - 1);
      }
      // The healthy client got every refresh, including after the cut-off.
      await publish(refresh());
      await healthy.next((m) => m.data.length === 6, 5_000, sent);
      expect(healthy.messages).toHaveLength(sent + 1);
      (slow.ws as unknown as { _socket: { resume(): void } })._socket.resume();
      expect((await slow.closed).code).toBe(4408);
      healthy.ws.close();
    });
  });
});

describe('push channel lifecycle', () => {
  it('terminates silent clients and closes the rest with 1001 on shutdown', async () => {
    const t = await createTestApp({ env: { MERIDIAN_WS_PING_INTERVAL_MS: '150' } });
    try {
      const user = await t.user('viewer');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      const url = `ws://127.0.0.1:${(t.app.server.address() as { port: number }).port}/predictions`;
      const silent = await connect(url, { headers: user.auth, autoPong: false });
      const healthy = await connect(url, { headers: user.auth });
      // No close frame for a dead peer: the socket is terminated (1006 on this side).
      expect((await silent.closed).code).toBe(1006);
      expect(healthy.ws.readyState).toBe(healthy.ws.OPEN);
      const closing = t.app.close();
      expect(await healthy.closed).toEqual({ code: 1001, reason: 'server shutting down' });
      await closing;
    } finally {
      await t.close();
    }
  });
});
