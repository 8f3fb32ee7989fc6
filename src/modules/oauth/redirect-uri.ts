const loopbackHosts = new Set(['127.0.0.1', '[::1]', 'localhost']);

/**
 * Why a redirect URI cannot be registered, or undefined when it can: an absolute https URL, or http on a
 * loopback address (native apps, RFC 8252 §7.3); no fragment (RFC 6749 §3.1.2), no wildcard. Matched
 * exactly, character for character, at authorization.
 */
export function redirectUriProblem(uri: string): string | undefined {
  if (uri.length > 2000) return 'must have at most 2000 characters';
  if (uri.includes('*')) return 'cannot contain a wildcard (*): redirect URIs are matched exactly';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'must be an absolute URL';
  }
  if (uri.includes('#')) return 'cannot have a fragment (#)';
  if (url.username || url.password) return 'cannot carry a user name or password';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && loopbackHosts.has(url.hostname)) return undefined;
  return 'must be https, or http on a loopback address (127.0.0.1, [::1], localhost)';
}
