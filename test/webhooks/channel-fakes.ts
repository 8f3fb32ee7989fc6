import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SMTPServer } from 'smtp-server';

// biome-ignore lint/suspicious/noExplicitAny: request bodies are checked field by field
type Json = any;

export interface Mail {
  to: string;
  raw: string;
  at: number;
}

/** A real SMTP server (smtp-server) recording every message it accepts. */
export async function startSmtp() {
  const mails: Mail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    disableReverseLookup: true,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (c: Buffer) => {
        raw += c.toString('utf8');
      });
      stream.on('end', () => {
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address).join(','), raw, at: Date.now() });
        done();
      });
    },
  });
  // A sender killed mid-message resets its connection; a real server logs that and goes on, so does this one.
  server.on('error', () => {});
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const port = (server.server.address() as AddressInfo).port;
  return { mails, port, close: () => new Promise<void>((done) => server.close(() => done())) };
}

export interface ChatRequest {
  method: string;
  path: string;
  body: Json;
  at: number;
}

/**
 * One local server speaking the three chat APIs' documented wire formats: Telegram Bot API sendMessage
 * (`POST /bot<token>/sendMessage`), Discord webhook execute (`POST /api/webhooks/<id>/<token>`), Slack incoming
 * webhook (`POST /services/…`). With `telegram429First`, Telegram answers its first message with its 429
 * (`parameters.retry_after`).
 */
export async function startChatFake(options: { telegram429First?: boolean } = {}) {
  const requests: ChatRequest[] = [];
  let telegramCalls = 0;
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('error', () => {}); // a sender killed mid-request resets the connection
    req.on('data', (c: Buffer) => {
      body += c.toString('utf8');
    });
    req.on('end', () => {
      const entry = {
        method: req.method ?? '',
        path: req.url ?? '',
        body: JSON.parse(body || '{}'),
        at: Date.now(),
      };
      requests.push(entry);
      res.setHeader('content-type', 'application/json');
      if (entry.path.startsWith('/bot')) {
        telegramCalls++;
        if (options.telegram429First && telegramCalls === 1) {
          res.writeHead(429);
          res.end(
            JSON.stringify({
              ok: false,
              error_code: 429,
              description: 'Too Many Requests: retry after 1',
              parameters: { retry_after: 1 },
            }),
          );
          return;
        }
        res.end(JSON.stringify({ ok: true, result: { message_id: telegramCalls } }));
        return;
      }
      if (entry.path.startsWith('/api/webhooks/')) {
        res.end(JSON.stringify({ id: '1', content: entry.body.content }));
        return;
      }
      res.setHeader('content-type', 'text/plain');
      res.end('ok');
    });
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', () => done()));
  const port = (server.address() as AddressInfo).port;
  return {
    requests,
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((done) => server.close(() => done()));
    },
  };
}
