import { type Socket, connect } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type TestApp, createTestApp } from '../harness/app.ts';

/** Resolves with how long the socket stayed open (ms) and what the server wrote, once it is closed. */
function closed(socket: Socket): Promise<{ afterMs: number; received: string }> {
  const started = Date.now();
  let received = '';
  socket.on('data', (chunk) => {
    received += chunk.toString();
  });
  socket.on('error', () => {});
  return new Promise((resolve) =>
    socket.once('close', () => resolve({ afterMs: Date.now() - started, received })),
  );
}

const open = (port: number, localAddress = '127.0.0.1') =>
  new Promise<Socket>((resolve, reject) => {
    const socket = connect({ host: '127.0.0.1', port, localAddress }, () => resolve(socket));
    socket.once('error', reject);
  });

describe('HTTP server limits', () => {
  let t: TestApp | undefined;
  afterEach(async () => {
    await t?.close();
    t = undefined;
  });

  async function listen(env: Record<string, string>): Promise<number> {
    t = await createTestApp({ env });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    return (t.app.server.address() as { port: number }).port;
  }

  it('closes the socket of a client trickling its body one byte at a time, within the request timeout', async () => {
    const port = await listen({
      MERIDIAN_HTTP_REQUEST_TIMEOUT_MS: '1000',
      MERIDIAN_HTTP_HEADERS_TIMEOUT_MS: '500',
    });
    const socket = await open(port);
    const done = closed(socket);
    socket.write(
      'POST /auth/login HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n',
    );
    const trickle = setInterval(() => socket.writable && socket.write(' '), 100);
    try {
      const { afterMs, received } = await Promise.race([
        done,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('socket still open after 8 s')), 8_000),
        ),
      ]);
      expect(afterMs).toBeLessThan(3_000);
      expect(received).toMatch(/^HTTP\/1\.1 408/);
      expect(received).toContain('application/problem+json');
    } finally {
      clearInterval(trickle);
      socket.destroy();
    }
  });

  it('refuses connections past the per-address cap while other addresses are still served', async () => {
    const port = await listen({ MERIDIAN_HTTP_CONNECTIONS_PER_ADDRESS: '3' });
    const held = await Promise.all([open(port), open(port), open(port)]);
    try {
      const extra = await open(port);
      const { received } = await Promise.race([
        closed(extra),
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('extra socket kept open')), 5_000),
        ),
      ]);
      expect(received).toBe('');
      // Another client address is served as usual.
      const other = await open(port, '127.0.0.2');
      const answer = closed(other);
      other.end('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect((await answer).received).toMatch(/^HTTP\/1\.1 200/);
      // Once one of the first address's sockets is gone, it may connect again.
      const gone = closed(held[0]!);
      held[0]!.destroy();
      await gone;
      await new Promise((resolve) => setTimeout(resolve, 50));
      const again = await open(port);
      const reply = closed(again);
      again.end('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
      expect((await reply).received).toMatch(/^HTTP\/1\.1 200/);
    } finally {
      for (const s of held) s.destroy();
    }
  });
});
