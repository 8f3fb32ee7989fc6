import { type Server, createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** A person at the test provider: the dev login form's "login" is the `sub`. */
export interface TestIdentity {
  email: string;
  emailVerified: boolean;
}

export interface TestProvider {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /**
   * Walks the provider's own pages as a browser would (login form, consent), from the authorization URL to
   * the redirect back, and returns that redirect's URL. `deny` aborts at the login page instead.
   */
  authorize(authorizationUrl: string, login: string, options?: { deny?: boolean }): Promise<URL>;
  close(): Promise<void>;
}

/**
 * A real OpenID Connect provider (node-oidc-provider) on a loopback port, with one confidential client and
 * the given people. Its development interactions (a login form that takes any password, a consent page) stand
 * in for a provider's sign-in pages; the ID token carries `sub` only, email and email_verified come from
 * userinfo, as with many real providers.
 */
export async function startTestProvider(options: {
  redirectUris: string[];
  people: Record<string, TestIdentity>;
  /** The issuer's host name (it listens on 127.0.0.1); `localhost` makes it another site than 127.0.0.1. */
  hostName?: string;
}): Promise<TestProvider> {
  const clientId = 'meridian-console';
  const clientSecret = 'a-client-secret-for-tests-only-0123456789';
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://${options.hostName ?? '127.0.0.1'}:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: clientId,
        client_secret: clientSecret,
        redirect_uris: options.redirectUris,
        grant_types: ['authorization_code'],
        response_types: ['code'],
        token_endpoint_auth_method: 'client_secret_basic',
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'] },
    cookies: { keys: ['test-provider-cookie-key'] },
    ttl: {
      Interaction: 600,
      Session: 600,
      Grant: 600,
      AccessToken: 600,
      IdToken: 600,
      AuthorizationCode: 60,
    },
    features: { devInteractions: { enabled: true } },
    async findAccount(_ctx, sub) {
      const person = options.people[sub];
      if (!person) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: person.email, email_verified: person.emailVerified }),
      };
    },
  });
  server.on('request', provider.callback());

  async function authorize(authorizationUrl: string, login: string, opts: { deny?: boolean } = {}) {
    const jar = new Map<string, string>();
    const send = async (url: string, init: RequestInit = {}) => {
      const response = await fetch(url, {
        ...init,
        redirect: 'manual',
        headers: {
          ...(init.headers as Record<string, string>),
          cookie: [...jar].map(([k, v]) => `${k}=${v}`).join('; '),
        },
      });
      for (const line of response.headers.getSetCookie()) {
        const [pair] = line.split(';');
        const at = pair!.indexOf('=');
        const name = pair!.slice(0, at);
        const value = pair!.slice(at + 1);
        if (/max-age=0|expires=thu, 01 jan 1970/i.test(line) || value === '') jar.delete(name);
        else jar.set(name, value);
      }
      return response;
    };
    let url = authorizationUrl;
    for (let step = 0; step < 12; step++) {
      if (!url.startsWith(issuer)) return new URL(url);
      const response = await send(url);
      const location = response.headers.get('location');
      if (location) {
        url = new URL(location, url).href;
        continue;
      }
      const page = await response.text();
      const uid = /\/interaction\/([^/"?]+)/.exec(page)?.[1];
      if (response.status !== 200 || !uid)
        throw new Error(`unexpected provider page ${response.status}: ${page}`);
      const form = page.includes('name="prompt" value="login"')
        ? opts.deny
          ? undefined
          : new URLSearchParams({ prompt: 'login', login, password: 'any' })
        : new URLSearchParams({ prompt: 'consent' });
      const next = form
        ? await send(`${issuer}/interaction/${uid}`, {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: form.toString(),
          })
        : await send(`${issuer}/interaction/${uid}/abort`);
      const after = next.headers.get('location');
      if (!after) throw new Error(`the provider did not redirect after the form: ${next.status}`);
      url = new URL(after, url).href;
    }
    throw new Error('the provider kept redirecting');
  }

  return {
    issuer,
    clientId,
    clientSecret,
    authorize,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
