import type { FastifyReply, FastifyRequest } from 'fastify';
import { type ClientCredentials, OAuthError } from '../../modules/oauth/index.ts';
import type { OAuthLimitRefusal } from '../oauth-rate-limit.ts';

/** The OAuth wire format (RFC 6749): the form body, the issuer, client credentials and the error answers. */

export const formType = 'application/x-www-form-urlencoded';

/** The issuer is this server as the client reached it (scheme and host; X-Forwarded-* with TRUST_PROXY). */
export const issuerOf = (request: FastifyRequest) => `${request.protocol}://${request.host}`;

export const isOAuthEndpoint = (request: FastifyRequest) =>
  request.routeOptions.url === '/oauth/token' || request.routeOptions.url === '/oauth/revoke';

/** RFC 6749 §2.3.1: `Basic base64(form-encoded id ":" form-encoded secret)`. */
export function basicCredentials(header: string | undefined): ClientCredentials['basic'] {
  const match = header ? /^Basic +([A-Za-z0-9+/=]+)\s*$/i.exec(header) : null;
  if (!match) return undefined;
  const decoded = Buffer.from(match[1]!, 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0)
    throw new OAuthError('invalid_client', 'HTTP Basic credentials must be client_id:client_secret');
  const formDecode = (text: string) => decodeURIComponent(text.replace(/\+/g, ' '));
  try {
    return { id: formDecode(decoded.slice(0, colon)), secret: formDecode(decoded.slice(colon + 1)) };
  } catch {
    throw new OAuthError('invalid_client', 'HTTP Basic credentials are not form-encoded');
  }
}

/** The form fields of a token or revocation request; a parameter given twice is refused (RFC 6749 §3.2). */
export function formOf(request: FastifyRequest): Record<string, string> {
  if (!request.headers['content-type']?.toLowerCase().startsWith(formType))
    throw new OAuthError('invalid_request', `the body must be ${formType}`);
  if (request.validationError)
    throw new OAuthError('invalid_request', request.validationError.message.replace(/^body\/?/, ''));
  return request.body as Record<string, string>;
}

/** Answers an RFC 6749 §5.2 error (JSON, not a problem document: the RFC mandates this format there). */
export function sendOAuthError(reply: FastifyReply, error: OAuthError, basicUsed: boolean) {
  if (error.status === 401)
    reply.header('www-authenticate', basicUsed ? 'Basic realm="meridian-oauth"' : 'Bearer realm="meridian"');
  return reply
    .code(error.status)
    .headers({ 'cache-control': 'no-store', pragma: 'no-cache' })
    .type('application/json; charset=utf-8')
    .send({ error: error.error, error_description: error.message });
}

/** 429 in the RFC 6749 §5.2 format, with Retry-After. */
export function sendRateLimited(reply: FastifyReply, refusal: OAuthLimitRefusal) {
  const whose = refusal.limit === 'client' ? 'for this client' : 'from this address';
  return reply
    .code(429)
    .headers({
      'retry-after': String(refusal.retryAfterSeconds),
      'cache-control': 'no-store',
      pragma: 'no-cache',
    })
    .type('application/json; charset=utf-8')
    .send({
      error: 'temporarily_unavailable',
      error_description: `too many token requests ${whose}; retry in ${refusal.retryAfterSeconds} s`,
    });
}
