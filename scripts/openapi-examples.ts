// `npm run openapi:examples`: captures the OpenAPI examples from a live simulated server — a real container
// (simulated market and chain, the predictions engine refreshed once) answering real requests — and writes
// them to src/http/openapi/examples.json (committed). Arrays are cut to two items so the document stays
// readable; ids, times and figures are whatever the server answered. Run it after a response shape changes;
// the OpenAPI tests validate every example against its schema, so a stale example fails `npm test`.
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { openDatabase } from '../src/adapters/db/connect.ts';
import { buildContainer } from '../src/app/container.ts';
import { loadConfig } from '../src/config/env.ts';
import { buildServer } from '../src/http/server.ts';
import { s256 } from '../src/modules/oauth/index.ts';
import { type ErrorCode, errorCatalogue } from '../src/shared/errors.ts';
import { Secret, TOTP } from 'otpauth';

const target = fileURLToPath(new URL('../src/http/openapi/examples.json', import.meta.url));

const examplesEnv = {
  LOG_LEVEL: 'silent',
  MERIDIAN_SYMBOLS: 'BTCUSDT,ETHUSDT,SOLUSDT',
  MERIDIAN_MARKET_HISTORY_DAYS: '2',
  MERIDIAN_SECRETS_KEY: 'openapi-examples-only-secret-0123456789abcdef',
  MERIDIAN_WEBHOOK_ALLOW: 'hooks.example.com',
  MERIDIAN_SLACK_WEBHOOK_BASE: 'https://hooks.example.com/services/',
  MERIDIAN_RATE_LIMIT_STANDARD: '100000',
};
const config = loadConfig(examplesEnv);
const db = await openDatabase({});
const container = await buildContainer(config, { db });
const app = await buildServer(container, { logLevel: 'silent' });
await app.ready();

await container.market.job.start();
await container.onchain.job.start();
const password = 'correct horse battery staple';
const { user } = await container.accounts.createUser({ email: 'quant@example.com', role: 'admin', password });
const { token } = await container.accounts.createToken(user.id, { name: 'examples', permissions: null });
const auth = { authorization: `Bearer ${token}` };

// Wait for the first flows, then refresh the forecasts once so every read endpoint has data.
for (let i = 0; i < 200; i++) {
  const flows = await app.inject({ url: '/api/onchain/flows', headers: auth });
  if (flows.json().data?.length) break;
  await new Promise((r) => setTimeout(r, 100));
}
// The forecasts need the market's recent candles: warm the model up on them, then refresh (a few tries while
// the simulated history is still being written).
for (let i = 0; i < 100; i++) {
  container.predictions.service.warmUp();
  const rows = await container.predictions.service.refresh();
  if (rows.length) break;
  await new Promise((r) => setTimeout(r, 200));
}

// biome-ignore lint/suspicious/noExplicitAny: answers are read as plain JSON
type Json = any;
type Captured = { request?: { contentType: string; value: unknown }; responses: Record<string, unknown> };
const out: Record<string, Captured> = {};

/**
 * Keeps the first two items of every array (examples show the shape, not the whole answer) and blanks the
 * secrets a create answer shows once, so the committed document holds no credential-looking strings.
 */
function trim(value: unknown): unknown {
  if (Array.isArray(value)) return value.slice(0, 2).map(trim);
  if (value && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [
        k,
        k === 'secret' && typeof v === 'string' && /^[A-Z2-7]+$/.test(v)
          ? 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP'
          : trim(v),
      ]),
    );
  if (typeof value === 'string' && value.startsWith('otpauth://'))
    return value.replace(/secret=[A-Z2-7]+/, 'secret=JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP');
  if (typeof value === 'string')
    return value.replace(
      /^(mrd_|mrr_|mrc_|whsec_|mi_)(.+)$/,
      (_all, prefix: string, rest: string) => `${prefix}${'x'.repeat(rest.length)}`,
    );
  return value;
}

async function capture(
  operationId: string,
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE',
  url: string,
  options: {
    body?: unknown;
    csv?: string;
    headers?: Record<string, string>;
    anonymous?: boolean;
    /** The problem status this call is meant to answer (an example of an error response). */
    expect?: number;
  } = {},
): Promise<Json> {
  const headers: Record<string, string> = { ...(options.anonymous ? {} : auth), ...options.headers };
  const res = await app.inject({
    method,
    url,
    headers: options.csv ? { ...headers, 'content-type': 'text/csv' } : headers,
    ...(options.body !== undefined ? { payload: options.body as object } : {}),
    ...(options.csv !== undefined ? { payload: options.csv } : {}),
  });
  if (res.statusCode >= 400 && res.statusCode !== options.expect)
    throw new Error(`${method} ${url} answered ${res.statusCode}: ${res.body}`);
  const body = res.body ? res.json() : undefined;
  const entry: Captured = out[operationId] ?? { responses: {} };
  out[operationId] = entry;
  if (options.expect === undefined && options.body !== undefined)
    entry.request = { contentType: 'application/json', value: trim(options.body) };
  if (options.expect === undefined && options.csv !== undefined)
    entry.request = { contentType: 'text/csv', value: options.csv };
  if (body !== undefined) entry.responses[String(res.statusCode)] = trim(body);
  return body;
}

async function captureProblem(code: ErrorCode, method: 'GET' | 'POST', url: string, headers = auth) {
  const res = await app.inject({ method, url, headers });
  const body = res.json();
  if (body.code !== code) throw new Error(`${url} answered ${body.code}, expected ${code}`);
  out[`problem:${code}`] = { responses: { [String(errorCatalogue[code].status)]: body } };
}

const login = await app.inject({
  method: 'POST',
  url: '/auth/login',
  payload: { email: 'quant@example.com', password },
});
out.login = {
  request: { contentType: 'application/json', value: { email: 'quant@example.com', password } },
  responses: { [String(login.statusCode)]: login.json() },
};
await capture('getSignInMethods', 'GET', '/auth/methods', { anonymous: true });
// Tokens are managed from a console session (an API token cannot mint tokens).
const session = login.cookies.find((c) => c.name === 'meridian_session')!;
const console = { anonymous: true, headers: { cookie: `meridian_session=${session.value}` } };
await capture('getAccount', 'GET', '/api/account');
const created = await capture('createToken', 'POST', '/api/account/tokens', {
  ...console,
  body: { name: 'forecast bot', expiresIn: '30d', permissions: ['market:read', 'predictions:read'] },
});
await capture('listTokens', 'GET', '/api/account/tokens', console);
const rotated = await capture(
  'rotateToken',
  'POST',
  `/api/account/tokens/${created.details.id}/rotate`,
  console,
);
await capture('revokeToken', 'DELETE', `/api/account/tokens/${rotated.details.id}`, console);

// Two-factor sign-in, on a second account: enrolment from the account page, the code step with a recovery code.
const totpNow = (secret: string, at = Date.now()) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: at,
  });
await container.accounts.createUser({ email: 'desk@example.com', role: 'member', password });
const deskLogin = await app.inject({
  method: 'POST',
  url: '/auth/login',
  payload: { email: 'desk@example.com', password },
});
const deskCookie = deskLogin.cookies.find((c) => c.name === 'meridian_session')!;
const desk = { anonymous: true, headers: { cookie: `meridian_session=${deskCookie.value}` } };
const enrolment = await capture('beginTwoFactor', 'POST', '/api/account/two-factor', desk);
const confirmed = await capture('confirmTwoFactor', 'POST', '/api/account/two-factor/confirm', {
  ...desk,
  body: { code: totpNow(enrolment.secret) },
});
await capture('getTwoFactor', 'GET', '/api/account/two-factor', desk);
const secondStep = (
  await app.inject({ method: 'POST', url: '/auth/login', payload: { email: 'desk@example.com', password } })
).json();
await capture('loginCode', 'POST', '/auth/login/code', {
  anonymous: true,
  body: { challenge: secondStep.challenge, code: confirmed.recoveryCodes[0] },
});
await capture('disableTwoFactor', 'POST', '/api/account/two-factor/disable', {
  ...desk,
  body: { code: confirmed.recoveryCodes[1] },
});

// Organizations: the quant's desk invites the second account, hands it ownership, and the quant leaves.
{
  const team = await capture('createOrganization', 'POST', '/api/organizations', {
    ...console,
    body: { name: 'Research desk' },
  });
  await capture('listOrganizations', 'GET', '/api/organizations', console);
  await capture('getOrganization', 'GET', `/api/organizations/${team.id}`, console);
  await capture('updateOrganization', 'PATCH', `/api/organizations/${team.id}`, {
    ...console,
    body: { name: 'Research' },
  });
  const invited = await capture('createInvitation', 'POST', `/api/organizations/${team.id}/invitations`, {
    ...console,
    body: { role: 'member', email: 'desk@example.com', expiresIn: '7d' },
  });
  await capture('listInvitations', 'GET', `/api/organizations/${team.id}/invitations`, console);
  await capture('acceptInvitation', 'POST', '/api/invitations/accept', {
    ...desk,
    body: { token: invited.token },
  });
  const members = await capture(
    'listOrganizationMembers',
    'GET',
    `/api/organizations/${team.id}/members`,
    console,
  );
  const deskId = members.data.find((m: Json) => m.email === 'desk@example.com').userId;
  await capture('changeOrganizationMemberRole', 'PATCH', `/api/organizations/${team.id}/members/${deskId}`, {
    ...console,
    body: { role: 'admin' },
  });
  const spare = await app.inject({
    method: 'POST',
    url: `/api/organizations/${team.id}/invitations`,
    headers: console.headers,
    payload: { role: 'viewer' },
  });
  await capture(
    'revokeInvitation',
    'DELETE',
    `/api/organizations/${team.id}/invitations/${spare.json().details.id}`,
    console,
  );
  await capture('transferOrganization', 'POST', `/api/organizations/${team.id}/transfer`, {
    ...console,
    body: { userId: deskId },
  });
  await capture(
    'removeOrganizationMember',
    'DELETE',
    `/api/organizations/${team.id}/members/${user.id}`,
    console,
  );
}
// Required enrolment at sign-in: a server with MERIDIAN_REQUIRE_2FA over the same database.
{
  const strict = await buildContainer(loadConfig({ ...examplesEnv, MERIDIAN_REQUIRE_2FA: 'true' }), {
    db,
    skipMigrations: true,
  });
  const strictApp = await buildServer(strict, { logLevel: 'silent' });
  await strictApp.ready();
  await strict.accounts.createUser({ email: 'ops@example.com', role: 'member', password });
  const post = (url: string, payload: object) => strictApp.inject({ method: 'POST', url, payload });
  const first = (await post('/auth/login', { email: 'ops@example.com', password })).json();
  const begun = await post('/auth/login/enrol', { challenge: first.challenge });
  out.loginEnrol = {
    request: { contentType: 'application/json', value: { challenge: first.challenge } },
    responses: { [String(begun.statusCode)]: trim(begun.json()) },
  };
  const code = totpNow(begun.json().secret);
  const done = await post('/auth/login/enrol/confirm', { challenge: first.challenge, code });
  if (done.statusCode !== 200)
    throw new Error(`required enrolment answered ${done.statusCode}: ${done.body}`);
  out.loginEnrolConfirm = {
    request: { contentType: 'application/json', value: { challenge: first.challenge, code } },
    responses: { '200': trim(done.json()) },
  };
  await strictApp.close();
  await strict.close();
}
await capture('listAuditLog', 'GET', '/api/audit-log?limit=2');

await capture('getMarketData', 'GET', '/api/market-data?symbols=BTCUSDT');
await capture('getMarketHistory', 'GET', '/api/market-history?symbol=BTCUSDT&interval=1h&limit=2');
await capture('listOnchainFlows', 'GET', '/api/onchain/flows?limit=2');
await capture('getOnchainNetflow', 'GET', '/api/onchain/netflow?interval=1d');
await capture('getDerivatives', 'GET', '/api/derivatives?symbols=BTCUSDT');
await capture(
  'getDerivativesHistory',
  'GET',
  '/api/derivatives/history?symbol=BTCUSDT&metric=funding&limit=2',
);
const page = await capture(
  'listPredictions',
  'GET',
  '/api/predictions?symbol=BTCUSDT&horizon=1h&limit=2&include=quantiles',
);
const mid = (page.data as Array<{ baseline: number }>).at(-1)!.baseline;
await capture(
  'getLevelProbabilities',
  'GET',
  `/api/predictions/probability?symbol=BTCUSDT&horizon=1h&levels=${Math.round(mid * 0.99)},${Math.round(mid * 1.01)}`,
);
await capture('getAiOutlook', 'GET', '/api/predictions/ai-outlook?symbol=BTCUSDT');
await capture('getPredictionPerformance', 'GET', '/api/predictions/performance');
await capture('listPredictionLedger', 'GET', '/api/predictions/ledger?limit=2');

await capture('importPortfolio', 'POST', '/api/portfolio/import', {
  csv: 'asset,quantity,cost_basis,acquired_at\nBTC,0.25,15000,2025-01-15\nETH,4,9800.50,2025-03-02\n',
  headers: { 'idempotency-key': 'import-2026-11-23-001' },
});
await capture('importPortfolio', 'POST', '/api/portfolio/import?dryRun=true', {
  body: { rows: [{ asset: 'SOL', quantity: '12.5', costBasis: 1850, acquiredAt: '2025-06-01T00:00:00Z' }] },
  expect: 200,
});
await capture('importPortfolio', 'POST', '/api/portfolio/import', {
  csv: 'asset,quantity,cost_basis\nBTC,0.25,15000\nETH,four,9800.50\n',
  expect: 400,
});
await capture('getPortfolio', 'GET', '/api/portfolio');
const rows = await capture('listPortfolioRows', 'GET', '/api/portfolio/rows');
await capture('listPortfolioImports', 'GET', '/api/portfolio/imports');
await capture(
  'deletePortfolioRow',
  'DELETE',
  `/api/portfolio/rows/${(rows.data as { id: string }[])[0]!.id}`,
);
await capture('getDashboardAnalytics', 'GET', '/api/dashboard/analytics');
await capture('getAccountUsage', 'GET', '/api/account/usage');
await capture('deletePortfolio', 'DELETE', '/api/portfolio');

const webhook = await capture('createWebhook', 'POST', '/api/webhooks', {
  body: { url: 'https://hooks.example.com/meridian', events: ['alert.triggered'] },
});
await capture('listWebhooks', 'GET', '/api/webhooks');
await capture('getWebhook', 'GET', `/api/webhooks/${webhook.id}`);
await capture('rotateWebhookSecret', 'POST', `/api/webhooks/${webhook.id}/rotate`);
const rule = await capture('createAlertRule', 'POST', '/api/alerts', {
  body: {
    type: 'price',
    symbol: 'BTCUSDT',
    name: 'BTC breaks 150k',
    condition: { op: 'crosses_above', value: 150000 },
    trigger: { mode: 'every', cooldownSec: 900 },
    channels: { webhookIds: [webhook.id], events: true },
  },
});
await capture('backtestAlertRule', 'POST', '/api/alerts/backtest?days=1', {
  body: {
    type: 'price',
    symbol: 'BTCUSDT',
    condition: { op: 'change_pct', value: -0.5, window: '1h' },
    trigger: { mode: 'every', cooldownSec: 3600 },
  },
});
await capture('listAlertRules', 'GET', '/api/alerts');
await capture('updateAlertRule', 'PATCH', `/api/alerts/${rule.id}`, { body: { name: 'BTC above 150k' } });
await capture('testAlertRule', 'POST', `/api/alerts/${rule.id}/test`);
await capture('getAlertRule', 'GET', `/api/alerts/${rule.id}`);
await capture('listAlertDeliveries', 'GET', `/api/alerts/${rule.id}/deliveries`);
await capture('listWebhookDeliveries', 'GET', `/api/webhooks/${webhook.id}/deliveries`);
await capture('deleteAlertRule', 'DELETE', `/api/alerts/${rule.id}`);
await capture('deleteWebhook', 'DELETE', `/api/webhooks/${webhook.id}`);

await capture('listOnchainExchanges', 'GET', '/api/onchain/exchanges');
const fund = { kind: 'fund', chain: 'ethereum', address: '0x1111111111111111111111111111111111111111' };
const label = await capture('saveLabel', 'POST', '/api/labels', { body: { ...fund, name: 'Acme Capital' } });
await capture('saveLabel', 'POST', '/api/labels', { body: { ...fund, name: 'Acme Capital' } });
await capture('listLabels', 'GET', '/api/labels');
await capture('deleteLabel', 'DELETE', `/api/labels/${label.id}`);
const channel = await capture('createAlertChannel', 'POST', '/api/alert-channels', {
  body: { type: 'slack', url: 'https://hooks.example.com/services/T000/B000/XXXXXXXX', name: 'desk' },
});
await capture('listAlertChannels', 'GET', '/api/alert-channels');
await capture('getAlertChannel', 'GET', `/api/alert-channels/${channel.id}`);
await capture('testAlertChannel', 'POST', `/api/alert-channels/${channel.id}/test`);
await capture('listAlertChannelDeliveries', 'GET', `/api/alert-channels/${channel.id}/deliveries`);
await capture('verifyAlertChannel', 'POST', `/api/alert-channels/${channel.id}/verify`, {
  body: { code: '123456' },
});
await capture('deleteAlertChannel', 'DELETE', `/api/alert-channels/${channel.id}`);
await capture('previewAlertTemplate', 'POST', '/api/alert-channels/preview', {
  body: {
    template: '{{symbol}} {{condition}} at {{price}} ({{rule_name}})',
    ruleType: 'price',
    rule: { name: 'BTC breakout', symbol: 'BTCUSDT', condition: { op: 'above', value: 100000 } },
  },
});

// OAuth: a public client, consent from the console session, then the form-encoded token endpoint.
const redirectUri = 'https://charts.example.com/callback';
await capture('getOAuthServerMetadata', 'GET', '/.well-known/oauth-authorization-server', {
  anonymous: true,
});
const oauthClient = await capture('createOAuthClient', 'POST', '/api/oauth/clients', {
  ...console,
  body: { name: 'Chart Studio', redirectUris: [redirectUri] },
});
await capture('listOAuthClients', 'GET', '/api/oauth/clients', console);
const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
const authorization = {
  response_type: 'code',
  client_id: oauthClient.client.id,
  redirect_uri: redirectUri,
  scope: 'market:read predictions:read',
  state: 'af0ifjsldkj',
  code_challenge: s256(verifier),
  code_challenge_method: 'S256',
};
await capture(
  'checkOAuthAuthorization',
  'GET',
  `/api/oauth/authorize?${new URLSearchParams(authorization)}`,
  console,
);
const decided = await capture('decideOAuthAuthorization', 'POST', '/api/oauth/authorize', {
  ...console,
  body: { ...authorization, decision: 'allow' },
});
/** A form-encoded call of the token or revocation endpoint, captured with its form as the request example. */
async function captureForm(operationId: string, url: string, fields: Record<string, string>) {
  const res = await app.inject({
    method: 'POST',
    url,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    payload: new URLSearchParams(fields).toString(),
  });
  if (res.statusCode >= 400) throw new Error(`POST ${url} answered ${res.statusCode}: ${res.body}`);
  const shown = { ...fields, ...('refresh_token' in fields ? { refresh_token: 'mrr_xxxxxxxx' } : {}) };
  out[operationId] = {
    request: { contentType: 'application/x-www-form-urlencoded', value: shown },
    responses: res.body ? { [String(res.statusCode)]: trim(res.json()) } : {},
  };
  return res.body ? res.json() : undefined;
}
const issued = await captureForm('oauthToken', '/oauth/token', {
  grant_type: 'authorization_code',
  code: new URL(decided.redirectTo).searchParams.get('code')!,
  redirect_uri: redirectUri,
  code_verifier: verifier,
  client_id: oauthClient.client.id,
});
await capture('listOAuthGrants', 'GET', '/api/oauth/grants', console);
await captureForm('oauthRevoke', '/oauth/revoke', {
  token: issued.refresh_token,
  client_id: oauthClient.client.id,
});
await capture('deleteOAuthClient', 'DELETE', `/api/oauth/clients/${oauthClient.client.id}`, console);

await captureProblem('validation_failed', 'GET', '/api/market-history?interval=1h&from=2021-02-30');
await captureProblem('unsupported_symbol', 'GET', '/api/market-history?symbol=NOPEUSDT&strict=true');
await captureProblem('unauthenticated', 'GET', '/api/market-data', {} as typeof auth);
await captureProblem('not_found', 'GET', '/api/alerts/alr_0000000000000000000000');

await container.market.job.stop();
await container.onchain.job.stop();
await app.close();
await container.close();
writeFileSync(target, `${JSON.stringify(out, null, 2)}\n`);
process.stdout.write(`wrote ${Object.keys(out).length} examples to ${target}\n`);
process.exit(0);
