import type { Config } from '../../config/env.ts';
import { AppError } from '../../shared/errors.ts';

export interface HostAllowList {
  /** The refusal of a request whose `Host` header names another host; `undefined` when the server answers it. */
  refusal(host: string | undefined): AppError | undefined;
}

const localhostForms = ['localhost', '127.0.0.1', '[::1]'];
const allInterfaces = new Set(['0.0.0.0', '::', '[::]']);
const ipv4Host = /^\d{1,3}(?:\.\d{1,3}){3}(?::\d*)?$/;
const ipv6Host = /^\[[0-9a-f:.]+\](?::\d*)?$/i;
const COLON = 58;

/**
 * The host names the server answers to (MERIDIAN_ALLOWED_HOSTS, docs/limits.md): the localhost forms, the
 * bound HOST and the configured names, any port; bound to all interfaces (0.0.0.0 or ::), also any IP
 * address, so health checks and direct access by address keep working. Every other `Host` is refused, which
 * keeps a DNS-rebinding page (its own name pointed at this server) from reading any answer.
 */
export function hostAllowList(config: Pick<Config, 'host' | 'allowedHosts'>): HostAllowList {
  if (config.allowedHosts.includes('*')) return { refusal: () => undefined };
  const names = [...new Set([...localhostForms, config.host, ...config.allowedHosts].map(hostNameOf))];
  // A rebinding page always sends a domain name as Host, never an IP literal.
  const anyAddress = allInterfaces.has(config.host);
  const named = (host: string) => {
    for (const name of names)
      if ((host.length === name.length || host.charCodeAt(name.length) === COLON) && host.startsWith(name))
        return true;
    return false;
  };
  return {
    refusal(host) {
      // No Host at all (only HTTP/1.0 may leave it out; node answers an HTTP/1.1 request without one 400)
      // cannot come from a browser, which always names the host it connected to.
      if (!host || named(host)) return undefined;
      const lower = host.toLowerCase();
      if ((lower !== host && named(lower)) || (anyAddress && (ipv4Host.test(host) || ipv6Host.test(host))))
        return undefined;
      return new AppError(
        'misdirected_request',
        `this server does not answer to the host ${JSON.stringify(host)}; list its name in MERIDIAN_ALLOWED_HOSTS`,
      );
    },
  };
}

/** `API.example.com:443` → `api.example.com`; `::1` and `[::1]:8080` → `[::1]` (the form a Host header has). */
function hostNameOf(entry: string): string {
  const text = entry.trim().toLowerCase();
  if (text.startsWith('[')) return text.slice(0, text.indexOf(']') + 1) || text;
  if (text.indexOf(':') !== text.lastIndexOf(':')) return `[${text}]`;
  const colon = text.indexOf(':');
  return colon < 0 ? text : text.slice(0, colon);
}
