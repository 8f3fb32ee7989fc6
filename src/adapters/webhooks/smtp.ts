import nodemailer from 'nodemailer';
import type { MailTransport, WebhookResponse } from '../../modules/webhooks/index.ts';

/**
 * The SMTP transport (nodemailer, pooled) to the operator's server, `MERIDIAN_SMTP_URL`
 * (`smtp://user:pass@host:587`, `smtps://…:465`). The server's reply code is the attempt's status: 250 accepted,
 * a 4xx/5xx refusal recorded as such; no answer within `timeoutMs` is a timeout.
 */
export function createSmtpTransport(options: {
  url: string;
  from: string;
  timeoutMs: number;
}): MailTransport {
  const url = new URL(options.url);
  const transport = nodemailer.createTransport({
    host: url.hostname,
    port: url.port ? Number(url.port) : url.protocol === 'smtps:' ? 465 : 587,
    secure: url.protocol === 'smtps:',
    auth: url.username
      ? { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) }
      : undefined,
    // Plain smtp:// to a local relay (or a test server) without STARTTLS is allowed; smtps:// is TLS.
    ignoreTLS: url.searchParams.get('tls') === 'off',
    // Connections are kept and reused: a new one per message (greeting, EHLO, maybe TLS) cost ~9× the send.
    pool: true,
    connectionTimeout: options.timeoutMs,
    greetingTimeout: options.timeoutMs,
    socketTimeout: options.timeoutMs,
  });
  return {
    async send(message): Promise<WebhookResponse> {
      const started = performance.now();
      const elapsed = () => Math.round(performance.now() - started);
      try {
        const info = await transport.sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          text: message.text,
          html: message.html,
          headers: message.headers,
          messageId: message.messageId,
        });
        const code = Number(/^(\d{3})/.exec(String(info.response))?.[1] ?? 250);
        return { kind: 'response', statusCode: code, latencyMs: elapsed() };
      } catch (error) {
        const e = error as { responseCode?: number; code?: string; message?: string };
        if (typeof e.responseCode === 'number')
          return { kind: 'response', statusCode: e.responseCode, latencyMs: elapsed() };
        const text = `${e.code ? `${e.code}: ` : ''}${e.message ?? String(error)}`.slice(0, 300);
        if (e.code === 'ETIMEDOUT') return { kind: 'timeout', error: text, latencyMs: elapsed() };
        return { kind: 'network_error', error: text, latencyMs: elapsed() };
      }
    },
    async close() {
      transport.close();
    },
  };
}
