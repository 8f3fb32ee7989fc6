import { connect as connectTcp } from 'node:net';
import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { App } from '../../src/http/types.ts';
import { registerWebSocketScope } from '../../src/http/push/server-options.ts';

/** Sends raw bytes and resolves with everything the server wrote and how long until it closed the socket. */
function exchange(port: number, bytes: string): Promise<{ text: string; closedAfterMs: number }> {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const socket = connectTcp(port, '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString();
    });
    socket.on('error', reject);
    socket.on('close', () => resolve({ text, closedAfterMs: Date.now() - started }));
  });
}

describe('WebSocket upgrade gate', () => {
  let app: App;
  let port: number;

  beforeAll(async () => {
    app = Fastify() as unknown as App;
    app.post('/login', async (request) => ({ got: request.body }));
    app.get('/plain', async () => ({ plain: true }));
    app.get('/never', () => new Promise(() => {}));
    await app.register(async (scope) => {
      await registerWebSocketScope(scope as App, ['/socket'], { refusedUpgradeTimeoutMs: 300 });
      (scope as App).get('/socket', { websocket: true }, (socket) => socket.send('hello'));
    });
    await app.listen({ port: 0, host: '127.0.0.1' });
    port = (app.server.address() as { port: number }).port;
  });
  afterAll(() => app.close());

  it('hands upgrades for its paths to the WebSocket routes', async () => {
    const ws = new WebSocket(`ws://127.0.0.1:${port}/socket?x=1`);
    const first = await new Promise<string>((resolve, reject) => {
      ws.once('message', (data) => resolve(data.toString()));
      ws.once('error', reject);
    });
    expect(first).toBe('hello');
    ws.close();
  });

  it('answers an upgrade to any other path as plain HTTP and closes the connection', async () => {
    const { text } = await exchange(
      port,
      'GET /plain HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n' +
        'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n',
    );
    expect(text).toMatch(/^HTTP\/1\.1 200 OK\r\n/);
    expect(text.toLowerCase()).toContain('connection: close');
    expect(text).toContain('{"plain":true}');
  });

  it('answers a refused upgrade that announces a body it cannot deliver (the socket has no HTTP parser) at once', async () => {
    const { text, closedAfterMs } = await exchange(
      port,
      'POST /login HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n',
    );
    expect(text).toMatch(/^HTTP\/1\.1 400 /);
    expect(closedAfterMs).toBeLessThan(250);
  });

  it('closes a refused upgrade that is never answered after the timeout, instead of holding it open', async () => {
    const { text, closedAfterMs } = await exchange(
      port,
      'GET /never HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n',
    );
    expect(text).toBe('');
    expect(closedAfterMs).toBeGreaterThanOrEqual(250);
    expect(closedAfterMs).toBeLessThan(5_000);
  });
});
