import { type Server, type Socket, connect, createServer } from 'node:net';

/**
 * A TCP proxy in front of one upstream, to fail the network on purpose:
 * - `cut()` resets every open connection (and new ones are accepted and reset) until `heal()`;
 * - `blackhole()` keeps connections open but delivers nothing in either direction (a partition: no reset,
 *   no answer), new connections likewise, until `heal()`.
 */
export interface FaultProxy {
  port: number;
  cut(): void;
  blackhole(): void;
  heal(): void;
  close(): Promise<void>;
}

export function startProxy(upstreamPort: number): Promise<FaultProxy> {
  let mode: 'pass' | 'cut' | 'blackhole' = 'pass';
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  const server: Server = createServer((client) => {
    if (mode === 'cut') {
      client.resetAndDestroy();
      return;
    }
    const upstream = connect(upstreamPort, '127.0.0.1');
    const pair = { client, upstream };
    pairs.add(pair);
    const end = () => {
      pairs.delete(pair);
      client.destroy();
      upstream.destroy();
    };
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
    client.on('data', (chunk) => {
      if (mode === 'pass') upstream.write(chunk);
    });
    upstream.on('data', (chunk) => {
      if (mode === 'pass') client.write(chunk);
    });
  });
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      resolve({
        port: (server.address() as { port: number }).port,
        cut() {
          mode = 'cut';
          for (const { client, upstream } of [...pairs]) {
            client.resetAndDestroy();
            upstream.destroy();
          }
        },
        blackhole() {
          mode = 'blackhole';
        },
        heal() {
          // Connections that lost bytes in the blackhole are unusable: end them, as a real network's
          // timeouts eventually would; new ones pass again.
          if (mode === 'blackhole')
            for (const { client, upstream } of [...pairs]) {
              client.resetAndDestroy();
              upstream.destroy();
            }
          mode = 'pass';
        },
        close: () =>
          new Promise((done) => {
            for (const { client, upstream } of [...pairs]) {
              client.destroy();
              upstream.destroy();
            }
            server.close(() => done());
          }),
      });
    });
  });
}
