import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { sharedTextFrame, writeSharedFrame } from './frame.ts';

/** A shared message sent to real ws sockets arrives whole, as text, on every one of them. */
describe('shared text frames', () => {
  let server: WebSocketServer;
  let url: string;
  beforeAll(async () => {
    server = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    await once(server, 'listening');
    url = `ws://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it.each([10, 125, 126, 65_535, 65_536, 200_000])(
    'delivers a %i-byte payload as text to each socket',
    async (n) => {
      const payload = Buffer.from(JSON.stringify({ data: 'x'.repeat(Math.max(0, n - 11)) }));
      const clients = [new WebSocket(url), new WebSocket(url)];
      const sockets: WebSocket[] = [];
      server.on('connection', (ws) => sockets.push(ws));
      await Promise.all(clients.map((c) => once(c, 'open')));
      while (sockets.length < clients.length) await new Promise((r) => setTimeout(r, 5));
      const received = clients.map((c) => once(c, 'message') as Promise<[Buffer, boolean]>);
      const shared = sharedTextFrame(payload);
      for (const ws of sockets) expect(writeSharedFrame(ws, shared)).toBe(false);
      for (const [data, isBinary] of await Promise.all(received)) {
        expect(isBinary).toBe(false);
        expect(data.equals(payload)).toBe(true);
      }
      server.removeAllListeners('connection');
      for (const c of clients) c.close();
    },
  );
});
