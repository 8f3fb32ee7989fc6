import { createHash, randomBytes } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/adapters/db/connect.ts';
import { buildContainer } from '../src/app/container.ts';
import { loadConfig } from '../src/config/env.ts';
import { buildServer } from '../src/http/server.ts';
import { median } from './stats.ts';

/**
 * What an OAuth access token costs per request against an API token the account made, in the same run:
 * 1. check — `authenticateToken` (the token cache: hash, lookup, expiry), batches of 50 k calls;
 * 2. request — a whole authenticated `GET /api/account` through the app (`inject`): 2 k pairs a round, one
 *    request of each kind back to back, each timed; the round's median request of each kind.
 * Rounds alternate which kind goes first; the medians over rounds are compared. Target: an access token adds ≤ 5 µs a request.
 */
const ROUNDS = Number(process.env.BENCH_OAUTH_ROUNDS ?? 15);
const CHECKS = 50_000;
const REQUESTS = 2_000;

export async function run() {
  const config = loadConfig({ LOG_LEVEL: 'silent', MERIDIAN_RATE_LIMIT_STANDARD: '100000000' });
  const container = await buildContainer(config, { db: await openDatabase({}) });
  const app = await buildServer(container, { logLevel: 'silent' });
  await app.ready();
  try {
    const { accounts, oauth } = container;
    const { user } = await accounts.createUser({
      email: 'bench@example.com',
      role: 'member',
      password: 'bench-password-long',
    });
    const apiToken = (await accounts.createToken(user.id, { name: 'bench', permissions: null })).token;
    const { principal } = await accounts.login('bench@example.com', 'bench-password-long');
    const redirectUri = 'https://bench.example.com/cb';
    const { client } = await oauth.registerClient(null, {
      name: 'bench',
      redirectUris: [redirectUri],
      confidential: false,
    });
    const verifier = randomBytes(48).toString('base64url');
    const { redirectTo } = await oauth.decideAuthorization(
      {
        response_type: 'code',
        client_id: client.id,
        redirect_uri: redirectUri,
        scope: 'market:read account:read',
        code_challenge: createHash('sha256').update(verifier).digest('base64url'),
        code_challenge_method: 'S256',
      },
      principal,
      'http://localhost',
      true,
    );
    const issued = await oauth.token(
      {
        grant_type: 'authorization_code',
        code: new URL(redirectTo).searchParams.get('code')!,
        redirect_uri: redirectUri,
        code_verifier: verifier,
      },
      { clientId: client.id },
    );
    const tokens = { api: apiToken, oauth: issued.access_token };

    const checkNs = async (token: string) => {
      await accounts.authenticateToken(token); // fills the cache entry if it lapsed
      const start = process.hrtime.bigint();
      for (let i = 0; i < CHECKS; i++) accounts.authenticateToken(token);
      return Number(process.hrtime.bigint() - start) / CHECKS;
    };
    /** One request's time, for each kind in turn: pairs back to back, so load from elsewhere hits both alike. */
    const requestPairs = async (order: readonly ('api' | 'oauth')[]) => {
      const out = { api: [] as number[], oauth: [] as number[] };
      for (let i = 0; i < REQUESTS; i++)
        for (const kind of order) {
          const start = process.hrtime.bigint();
          const res = await app.inject({
            url: '/api/account',
            headers: { authorization: `Bearer ${tokens[kind]}` },
          });
          out[kind].push(Number(process.hrtime.bigint() - start));
          if (res.statusCode !== 200)
            throw new Error(`GET /api/account answered ${res.statusCode}: ${res.body}`);
        }
      return out;
    };

    const samples = {
      checkApi: [] as number[],
      checkOAuth: [] as number[],
      reqApi: [] as number[],
      reqOAuth: [] as number[],
    };
    for (let round = 0; round < ROUNDS; round++) {
      const order = round % 2 ? (['oauth', 'api'] as const) : (['api', 'oauth'] as const);
      for (const kind of order) {
        const ns = await checkNs(tokens[kind]);
        (kind === 'api' ? samples.checkApi : samples.checkOAuth).push(ns);
      }
      const pairs = await requestPairs(order);
      // Each round's median request, then the median over rounds.
      samples.reqApi.push(median(pairs.api));
      samples.reqOAuth.push(median(pairs.oauth));
    }
    const us = (ns: number) => Math.round(ns / 10) / 100;
    const added = median(samples.reqOAuth) - median(samples.reqApi);
    const result = {
      rounds: ROUNDS,
      checkUs: { apiToken: us(median(samples.checkApi)), oauthAccessToken: us(median(samples.checkOAuth)) },
      requestUs: { apiToken: us(median(samples.reqApi)), oauthAccessToken: us(median(samples.reqOAuth)) },
      addedPerRequestUs: us(added),
      addedPerCheckUs: us(median(samples.checkOAuth) - median(samples.checkApi)),
      target: 'an OAuth access token adds ≤ 5 µs a request',
      met: added <= 5_000,
    };
    console.log(JSON.stringify(result, null, 2));
    return result;
  } finally {
    await app.close();
    await container.close();
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) await run().then(() => process.exit(0));
