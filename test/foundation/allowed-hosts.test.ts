import { connect } from 'node:net';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestApp, type TestUser, createTestApp } from '../harness/app.ts';
import { connect as connectWebSocket } from '../push/client.ts';

/**
 * Writes raw bytes to the server and resolves with everything it answered once it closes the connection, or
 * after 2 s (an upgraded WebSocket stays open).
 */
function exchange(port: number, bytes: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes));
    socket.setTimeout(2_000, () => socket.destroy());
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(text));
  });
}

/** The routes a DNS-rebinding page would go for: sign-in, metrics, the API docs, health. */
const sensitive = [
  { method: 'POST', url: '/auth/login', payload: { email: 'admin@meridian.local', password: 'guess' } },
  { method: 'GET', url: '/metrics' },
  { method: 'GET', url: '/docs' },
  { method: 'GET', url: '/healthz' },
  { method: 'GET', url: '/readyz' },
] as const;

function expectMisdirected(res: LightMyRequestResponse, host: string) {
  expect(res.statusCode).toBe(421);
  expect(res.headers['content-type']).toMatch(/^application\/problem\+json/);
  const problem = res.json();
  expect(problem).toMatchObject({
    status: 421,
    code: 'misdirected_request',
    type: '/problems/misdirected_request',
  });
  expect(problem.detail).toContain(host);
  expect(problem.detail).toContain('MERIDIAN_ALLOWED_HOSTS');
}

describe('Host allow-list (MERIDIAN_ALLOWED_HOSTS)', () => {
  describe('default, bound to 127.0.0.1', () => {
    let t: TestApp;
    let member: TestUser;
    let port: number;
    beforeAll(async () => {
      t = await createTestApp();
      member = await t.user('member');
      await t.app.listen({ port: 0, host: '127.0.0.1' });
      port = (t.app.server.address() as { port: number }).port;
    });
    afterAll(() => t.close());

    it.each(sensitive)('refuses a foreign Host on $method $url with 421 problem+json', async (route) => {
      expectMisdirected(await t.app.inject({ ...route, headers: { host: 'evil.example' } }), 'evil.example');
      expectMisdirected(
        await t.app.inject({ ...route, headers: { host: 'evil.example:8080' } }),
        'evil.example',
      );
    });

    it('refuses a foreign Host on an authenticated API route, before the credentials are looked at', async () => {
      const res = await t.app.inject({
        url: '/api/account',
        headers: { ...member.auth, host: 'evil.example' },
      });
      expectMisdirected(res, 'evil.example');
    });

    it('refuses a name that only starts like localhost, and an IP literal when not bound to all interfaces', async () => {
      for (const host of ['localhost.evil.example', '127.0.0.1.nip.io', '10.1.2.3:8080', '[fd00::1]:8080'])
        expect((await t.app.inject({ url: '/healthz', headers: { host } })).statusCode, host).toBe(421);
    });

    it('answers the localhost forms and the bound host, with or without a port, in any case', async () => {
      for (const host of [
        'localhost',
        'localhost:8080',
        'LocalHost:8080',
        '127.0.0.1',
        '127.0.0.1:8080',
        '[::1]',
        '[::1]:8080',
      ]) {
        const res = await t.app.inject({ url: '/healthz', headers: { host } });
        expect(res.statusCode, host).toBe(200);
      }
      const login = await t.app.inject({ ...sensitive[0], headers: { host: 'localhost:8080' } });
      expect(login.statusCode).toBe(401);
      expect((await t.app.inject({ url: '/metrics', headers: { host: '127.0.0.1:8080' } })).statusCode).toBe(
        200,
      );
      expect((await t.app.inject({ url: '/docs', headers: { host: 'localhost' } })).statusCode).toBeLessThan(
        400,
      );
    });

    it('refuses a WebSocket upgrade with a foreign Host before the handshake', async () => {
      const answer = await exchange(
        port,
        `GET /predictions HTTP/1.1\r\nHost: evil.example\r\nAuthorization: Bearer ${member.token}\r\n` +
          'Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
          'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
      );
      expect(answer).toMatch(/^HTTP\/1\.1 421 /);
      expect(answer.toLowerCase()).toContain('content-type: application/problem+json');
      expect(answer).toContain('"code":"misdirected_request"');
      expect(answer).toContain('MERIDIAN_ALLOWED_HOSTS');
    });

    it('accepts a WebSocket upgrade with an allowed Host', async () => {
      const client = await connectWebSocket(`ws://127.0.0.1:${port}/predictions`, {
        headers: { ...member.auth, host: `localhost:${port}` },
      });
      client.ws.close();
    });

    it('answers an HTTP/1.0 request without a Host (browsers always send one)', async () => {
      const answer = await exchange(port, 'GET /healthz HTTP/1.0\r\n\r\n');
      expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    });
  });

  describe('bound to all interfaces, with names configured', () => {
    let t: TestApp;
    beforeAll(async () => {
      t = await createTestApp({
        env: { HOST: '0.0.0.0', MERIDIAN_ALLOWED_HOSTS: 'api.example.com, Console.Example.com:8443' },
      });
    });
    afterAll(() => t.close());

    it('answers the configured names (ports and case ignored), the localhost forms and any IP literal', async () => {
      for (const host of [
        'api.example.com',
        'api.example.com:443',
        'console.example.com',
        'CONSOLE.example.com:9000',
        'localhost:8080',
        '[::1]:8080',
        '10.1.2.3',
        '172.18.0.5:8080',
        '[fd00::1]:8080',
      ]) {
        const res = await t.app.inject({ url: '/healthz', headers: { host } });
        expect(res.statusCode, host).toBe(200);
      }
    });

    it('still refuses any other name', async () => {
      for (const host of ['evil.example', 'api.example.com.evil.example', 'example.com', '127.0.0.1.nip.io'])
        expectMisdirected(await t.app.inject({ url: '/metrics', headers: { host } }), host);
    });
  });

  it('accepts IP literals when bound to :: as well', async () => {
    const t = await createTestApp({ env: { HOST: '::' } });
    try {
      for (const host of ['192.168.1.20:8080', '[2001:db8::5]:8080'])
        expect((await t.app.inject({ url: '/healthz', headers: { host } })).statusCode, host).toBe(200);
      expect((await t.app.inject({ url: '/healthz', headers: { host: 'evil.example' } })).statusCode).toBe(
        421,
      );
    } finally {
      await t.close();
    }
  });

  it('`*` turns the check off', async () => {
    const t = await createTestApp({ env: { MERIDIAN_ALLOWED_HOSTS: '*' } });
    try {
      for (const { url } of sensitive.slice(1, 4))
        expect((await t.app.inject({ url, headers: { host: 'evil.example' } })).statusCode, url).toBeLessThan(
          400,
        );
    } finally {
      await t.close();
    }
  });
});
