import type { IncomingMessage } from 'node:http';
import WebSocket from 'ws';
import type { Horizon, PredictionDatapoint } from '../../src/modules/predictions/index.ts';
import { waitUntil } from '../harness/wait.ts';

/** A test client: every received message is kept, and tests wait for the ones they expect. */
export interface Client {
  ws: WebSocket;
  /** The 101 answer's headers. */
  headers: IncomingMessage['headers'];
  messages: unknown[];
  /** Resolves with the first message (from `from` on) matching `match`; rejects after `timeoutMs`. */
  next(match?: (m: any) => boolean, timeoutMs?: number, from?: number): Promise<any>;
  send(value: unknown): void;
  closed: Promise<{ code: number; reason: string }>;
}

export interface Refused {
  status: number;
  headers: IncomingMessage['headers'];
  body: any;
}

/** Opens a socket; resolves once open, or rejects with the refusal (status, headers, problem body). */
export function connect(
  url: string,
  options: { headers?: Record<string, string>; protocols?: string[]; autoPong?: boolean } = {},
): Promise<Client> {
  return new Promise((resolve, reject) => {
    const ws = new WebSocket(url, options.protocols ?? [], {
      headers: options.headers,
      autoPong: options.autoPong ?? true,
      perMessageDeflate: false,
    });
    const messages: unknown[] = [];
    const waiters = new Set<() => void>();
    let headers: IncomingMessage['headers'] = {};
    const closed = new Promise<{ code: number; reason: string }>((done) =>
      ws.once('close', (code, reason) => {
        done({ code, reason: reason.toString() });
        for (const w of waiters) w();
      }),
    );
    ws.on('upgrade', (response) => {
      headers = response.headers;
    });
    ws.on('message', (data) => {
      messages.push(JSON.parse(data.toString()));
      for (const w of waiters) w();
    });
    ws.once('unexpected-response', (_req, res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
      });
      res.on('end', () => {
        let parsed: unknown = body;
        try {
          parsed = JSON.parse(body);
        } catch {}
        reject({ status: res.statusCode ?? 0, headers: res.headers, body: parsed } satisfies Refused);
      });
    });
    ws.once('error', (error) => reject(error));
    ws.once('open', () => {
      resolve({
        ws,
        get headers() {
          return headers;
        },
        messages,
        closed,
        send: (value) => ws.send(typeof value === 'string' ? value : JSON.stringify(value)),
        next(match = () => true, timeoutMs = 3_000, from = 0) {
          return new Promise((done, fail) => {
            const check = () => {
              for (let i = from; i < messages.length; i++) {
                if (match(messages[i])) {
                  waiters.delete(check);
                  clearTimeout(timer);
                  done(messages[i]);
                  return;
                }
              }
              if (ws.readyState === WebSocket.CLOSED) {
                waiters.delete(check);
                clearTimeout(timer);
                fail(new Error('socket closed before the expected message'));
              }
            };
            const timer = setTimeout(() => {
              waiters.delete(check);
              fail(
                new Error(
                  `no matching message within ${timeoutMs} ms; got ${JSON.stringify(messages).slice(0, 500)}`,
                ),
              );
            }, timeoutMs);
            waiters.add(check);
            check();
          });
        },
      });
    });
  });
}

/** Expects a refused handshake and returns it. */
export async function refused(url: string, options: Parameters<typeof connect>[1] = {}): Promise<Refused> {
  try {
    const client = await connect(url, options);
    client.ws.terminate();
  } catch (error) {
    if (error && typeof error === 'object' && 'status' in error) return error as Refused;
    throw error;
  }
  throw new Error('the handshake was accepted');
}

/** A refresh as the predictions engine publishes it: one datapoint per symbol and horizon. */
export function refresh(
  symbols: readonly string[] = ['BTCUSDT', 'ETHUSDT'],
  horizons: readonly Horizon[] = ['15m', '1h', '6h'],
  generatedAt = new Date().toISOString(),
): { data: PredictionDatapoint[] } {
  return {
    data: symbols.flatMap((symbol) =>
      horizons.map((horizon) => ({
        symbol,
        horizon,
        prediction: 100_000.5,
        baseline: 100_000,
        expectedMovePct: 0.42,
        confidence: 0.61,
        factors: { orderflow: 0.4, funding: 0.1, macro: 0.2, ai_residual: 0.3 },
        generatedAt,
      })),
    ),
  };
}

/** Waits until `check` is true (polled), or fails after `timeoutMs`. */
export async function until(check: () => boolean | Promise<boolean>, timeoutMs = 3_000, what = 'condition') {
  await waitUntil(check, what, timeoutMs);
}
