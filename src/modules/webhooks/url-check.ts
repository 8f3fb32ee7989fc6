import { AppError } from '../../shared/errors.ts';
import { type AddressPolicy, isIpLiteral } from './address-policy.ts';

/** Resolves a host name to every address it has (the `dns.lookup` view the HTTP client will use). */
export type ResolveHost = (host: string) => Promise<string[]>;

export interface UrlRules {
  policy: AddressPolicy;
  /** Plain http:// accepted (operator setting); otherwise https:// only. */
  allowHttp: boolean;
  resolve: ResolveHost;
}

const refused = (reason: string) =>
  new AppError('url_not_allowed', `the webhook URL is not allowed: ${reason}`, {
    errors: [{ pointer: '/body/url', message: reason }],
  });

/**
 * Checks a webhook URL when it is registered: scheme, no embedded credentials, and every address the host
 * resolves to now. This is the early, explanatory check; the binding one is made again at connect time by the
 * delivery transport (a name can resolve elsewhere later). Returns the normalized URL text.
 */
export async function checkWebhookUrl(text: string, rules: UrlRules): Promise<string> {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw refused(`${JSON.stringify(text)} is not an absolute URL`);
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && rules.allowHttp)) {
    throw refused(
      url.protocol === 'http:'
        ? 'plain http:// is not accepted here; use https:// (the operator can allow http with MERIDIAN_WEBHOOK_ALLOW_HTTP)'
        : `the scheme ${url.protocol} is not accepted; use https://`,
    );
  }
  if (url.username || url.password) throw refused('credentials in the URL are not accepted');
  if (url.hash) throw refused('a URL fragment is not sent to the receiver; remove it');
  const host = url.hostname;
  if (!host) throw refused('the URL has no host');
  // Port 0 is no port a receiver can listen on (connecting to it fails, or reaches whatever the OS picks).
  if (url.port === '0') throw refused('port 0 is not a port a receiver can listen on');
  if (rules.policy.hostAllowed(host)) return url.toString();
  if (isIpLiteral(host)) {
    const reason = rules.policy.refusal(host, host);
    if (reason) throw refused(`${host} is not reachable for webhooks: ${reason}`);
    return url.toString();
  }
  let addresses: string[];
  try {
    addresses = await rules.resolve(host);
  } catch (error) {
    throw refused(
      `the host ${host} does not resolve (${(error as NodeJS.ErrnoException).code ?? 'lookup failed'})`,
    );
  }
  if (!addresses.length) throw refused(`the host ${host} does not resolve`);
  for (const address of addresses) {
    const reason = rules.policy.refusal(address, host);
    if (reason) throw refused(`the host ${host} resolves to ${reason}`);
  }
  return url.toString();
}
