import {
  type Variable,
  boolVar,
  durationListVar,
  enumVar,
  intVar,
  optionalIntVar,
  listVar,
  optionalStringVar,
  stringVar,
  urlVar,
} from './variables.ts';
import { type ChainSpec, parseChains } from './chains.ts';

/**
 * Largest N of `MERIDIAN_SYMBOLS=top:N`. Every symbol costs the market feed work four times a second and
 * memory for its history (docs/market.md, "The universe"); a venue lists a few hundred dollar-quoted spot
 * pairs (Binance about 400), and past 1000 the markets left trade a few hundred thousand USD a day.
 */
export const MAX_TOP_SYMBOLS = 1_000;

/** The default `MERIDIAN_SYMBOLS`: seven majors quoted in USDT (a quick start). */
const DEFAULT_SYMBOL_LIST = ['BTCUSDT', 'ETHUSDT', 'SOLUSDT', 'BNBUSDT', 'XRPUSDT', 'ADAUSDT', 'DOGEUSDT'];

/**
 * `MERIDIAN_SYMBOLS`: the symbols as configured (spellings as given; app/market.ts makes them canonical and
 * narrows them to what the source serves) or the N most liquid markets of the source, resolved at start.
 */
export type SymbolUniverse =
  | { readonly kind: 'list'; readonly symbols: readonly string[] }
  | { readonly kind: 'top'; readonly count: number };

/**
 * The environment schema. Add a variable here (and only here); `loadConfig` parses all of them at start
 * and a bad value stops the process naming the variable and what is allowed.
 */
export const variables = {
  port: intVar('PORT', 'HTTP port of the API (REST, WebSocket, docs, metrics).', 8080, {
    min: 0,
    max: 65535,
  }),
  host: stringVar(
    'HOST',
    'Interface to listen on. Use 0.0.0.0 to accept connections from other hosts.',
    '127.0.0.1',
  ),
  dataDir: stringVar(
    'MERIDIAN_DATA_DIR',
    'Folder of the embedded PGlite database (ignored when DATABASE_URL is set) and the CLI lock/socket.',
    './data',
  ),
  databaseUrl: urlVar(
    'DATABASE_URL',
    'PostgreSQL connection URL. When set, PostgreSQL is used instead of embedded PGlite.',
    ['postgres:', 'postgresql:'],
  ),
  redisUrl: urlVar(
    'REDIS_URL',
    'Redis URL. When set, rate limits, the event bus and WebSocket fan-out are shared across replicas.',
    ['redis:', 'rediss:'],
  ),
  busChannelPrefix: stringVar(
    'MERIDIAN_BUS_PREFIX',
    'Prefix of the Redis pub/sub channels of the event bus: deployments sharing one Redis need one each (pub/sub ignores the database number).',
    'meridian:bus:',
  ),
  dbConnectTimeoutMs: intVar(
    'MERIDIAN_DB_CONNECT_TIMEOUT_MS',
    'PostgreSQL: longest wait to open a connection or get a free pooled one; past it the request is answered 503 (storage_unavailable, Retry-After).',
    1_000,
    { min: 100, max: 60_000 },
  ),
  dbStatementTimeoutMs: intVar(
    'MERIDIAN_DB_STATEMENT_TIMEOUT_MS',
    'PostgreSQL: longest run of one statement (server `statement_timeout`; the client gives up 250 ms later, and a wait for the connection plus the statement get at most the larger of this and the connect timeout, so a frozen server cannot hold a request). Past it: 503.',
    1_250,
    { min: 100, max: 600_000 },
  ),
  dbIdleInTransactionTimeoutMs: intVar(
    'MERIDIAN_DB_IDLE_TX_TIMEOUT_MS',
    'PostgreSQL: a session idle inside an open transaction this long is ended by the server (`idle_in_transaction_session_timeout`), releasing its locks.',
    5_000,
    { min: 100, max: 600_000 },
  ),
  leaderLeaseMs: intVar(
    'MERIDIAN_LEADER_LEASE_MS',
    "PostgreSQL: lease of a background job's leadership. The leader renews it every quarter lease and stops its job when it could not renew for half a lease; a standby takes over once the lease has expired.",
    10_000,
    { min: 1_000, max: 600_000 },
  ),
  logLevel: enumVar(
    'LOG_LEVEL',
    'pino log level. At `debug` every request is logged; at `info` only errors and lifecycle events.',
    ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const,
    'info',
  ),
  role: enumVar(
    'MERIDIAN_ROLE',
    'Process role: `all` (API + workers), `api` (HTTP only), `worker` (background jobs only).',
    ['all', 'api', 'worker'] as const,
    'all',
  ),
  bootstrapAdminEmail: stringVar(
    'MERIDIAN_ADMIN_EMAIL',
    'Email of the admin account created on first start with an empty store.',
    'admin@meridian.local',
  ),
  trustProxy: boolVar('TRUST_PROXY', 'Trust X-Forwarded-* headers (set behind a load balancer).', false),
  httpRequestTimeoutMs: intVar(
    'MERIDIAN_HTTP_REQUEST_TIMEOUT_MS',
    'Longest time a client has to send one whole request, headers and body (node `requestTimeout`); past it the request is answered 408 and the connection closed, so a client trickling a body cannot hold a socket.',
    30_000,
    { min: 100, max: 3_600_000 },
  ),
  httpHeadersTimeoutMs: intVar(
    'MERIDIAN_HTTP_HEADERS_TIMEOUT_MS',
    'Longest time a client has to send the request line and headers (node `headersTimeout`; at most the request timeout).',
    10_000,
    { min: 100, max: 3_600_000 },
  ),
  httpKeepAliveTimeoutMs: intVar(
    'MERIDIAN_HTTP_KEEP_ALIVE_TIMEOUT_MS',
    'An idle keep-alive connection between two requests is closed after this long (node `keepAliveTimeout`; keep it above the idle timeout of a load balancer in front).',
    72_000,
    { min: 100, max: 3_600_000 },
  ),
  httpConnectionsPerAddress: optionalIntVar(
    'MERIDIAN_HTTP_CONNECTIONS_PER_ADDRESS',
    'Open connections (HTTP and WebSocket) allowed from one client address; further ones are closed at once. Unset: 256, or no cap with TRUST_PROXY=true (every connection then comes from the proxy). 0: no cap.',
    { min: 0, max: 1_000_000 },
  ),
  workerPort: optionalIntVar(
    'MERIDIAN_WORKER_PORT',
    'Port where a `--role worker` process serves /healthz, /readyz and /metrics (0 picks a free port); unset: none.',
    { min: 0, max: 65_535 },
  ),
  retainCandles1mDays: intVar(
    'MERIDIAN_RETAIN_CANDLES_1M_DAYS',
    'Days of 1-minute candles kept in storage (every venue and the merged series); coarser intervals are kept. 0 keeps them forever. The model needs the last 3 days.',
    35,
    { min: 0, max: 36_500 },
  ),
  retainPredictionsDays: intVar(
    'MERIDIAN_RETAIN_PREDICTIONS_DAYS',
    'Days of stored forecasts (and their outage gaps) kept; the track record reads the last 30. 0 keeps them forever.',
    90,
    { min: 0, max: 36_500 },
  ),
  retainFlowsDays: intVar(
    'MERIDIAN_RETAIN_FLOWS_DAYS',
    'Days of indexed exchange flows kept. 0 keeps them forever.',
    90,
    { min: 0, max: 36_500 },
  ),
  auditRetentionDays: intVar(
    'MERIDIAN_AUDIT_RETENTION_DAYS',
    'Days of audit-log entries kept (docs/audit-log.md); the hourly retention sweep is the only deleter. 0 keeps them forever.',
    365,
    { min: 0, max: 36_500 },
  ),
  pgliteThread: boolVar(
    'MERIDIAN_PGLITE_THREAD',
    'Run embedded PGlite on a thread of its own, so its queries do not pause the event loop that answers requests (docs/architecture.md, "Storage"); false runs it on the server thread. Ignored with DATABASE_URL.',
    true,
  ),
  standardRateLimit: intVar(
    'MERIDIAN_RATE_LIMIT_STANDARD',
    'Requests per 60-second window for accounts on the standard plan.',
    120,
    { min: 1, max: 1_000_000_000 },
  ),
  proRateLimit: intVar(
    'MERIDIAN_RATE_LIMIT_PRO',
    'Requests per 60-second window for accounts on the pro plan.',
    1200,
    {
      min: 1,
      max: 1_000_000_000,
    },
  ),
  authFailureLimit: intVar(
    'MERIDIAN_AUTH_FAILURE_LIMIT',
    'Failed authentications allowed per client address per 60 seconds before 429.',
    30,
    { min: 1, max: 1_000_000 },
  ),
  tokensStandard: intVar(
    'MERIDIAN_TOKENS_STANDARD',
    'Active (unexpired, unrevoked) API tokens an account on the standard plan may have; creating one more answers 409 token_limit_reached.',
    20,
    { min: 1, max: 100_000 },
  ),
  tokensPro: intVar('MERIDIAN_TOKENS_PRO', 'Active API tokens an account on the pro plan may have.', 100, {
    min: 1,
    max: 100_000,
  }),
  sessionsStandard: intVar(
    'MERIDIAN_SESSIONS_STANDARD',
    'Console sessions an account on the standard plan may hold at once; a sign-in beyond it ends the oldest.',
    10,
    { min: 1, max: 100_000 },
  ),
  sessionsPro: intVar(
    'MERIDIAN_SESSIONS_PRO',
    'Console sessions an account on the pro plan may hold at once; a sign-in beyond it ends the oldest.',
    20,
    { min: 1, max: 100_000 },
  ),
  sessionTtlHours: intVar('MERIDIAN_SESSION_TTL_HOURS', 'Lifetime of a console session.', 12, {
    min: 1,
    max: 720,
  }),
  oauthAccessTokenTtlSeconds: intVar(
    'MERIDIAN_OAUTH_ACCESS_TOKEN_TTL_SECONDS',
    'Lifetime of an OAuth access token; the app renews it with its refresh token (docs/oauth.md).',
    600,
    { min: 60, max: 86_400 },
  ),
  oauthRefreshTokenTtlDays: intVar(
    'MERIDIAN_OAUTH_REFRESH_TOKEN_TTL_DAYS',
    'Lifetime of an OAuth refresh token; each refresh issues a new one with a fresh lifetime, and the app must sign the person in again after this long unused.',
    30,
    { min: 1, max: 365 },
  ),
  oauthClientRateLimit: intVar(
    'MERIDIAN_OAUTH_CLIENT_RATE_LIMIT',
    'Requests per minute to /oauth/token and /oauth/revoke for one OAuth client (named by client_id or HTTP Basic), over every replica; beyond it 429 with Retry-After.',
    300,
    { min: 1, max: 1_000_000 },
  ),
  oauthAddressRateLimit: intVar(
    'MERIDIAN_OAUTH_ADDRESS_RATE_LIMIT',
    'Requests per minute to /oauth/token and /oauth/revoke from one client address, for requests that do not authenticate a confidential client (public clients, wrong or missing secrets); beyond it 429 with Retry-After.',
    60,
    { min: 1, max: 1_000_000 },
  ),
  requireTwoFactor: boolVar(
    'MERIDIAN_REQUIRE_2FA',
    'Require two-factor sign-in (TOTP) for every password account: an account without it must enrol during its next sign-in, and cannot turn it off. Applies to all accounts of the server (there are no organizations yet).',
    false,
  ),
  cookieSecure: boolVar(
    'MERIDIAN_COOKIE_SECURE',
    'Mark the session cookie `Secure` on every answer. Without it, the cookie is `Secure` when the request came over https (directly, or as X-Forwarded-Proto from a proxy trusted with TRUST_PROXY).',
    false,
  ),
  passwordSignIn: boolVar(
    'MERIDIAN_PASSWORD_SIGNIN',
    'Console sign-in with email and password. `false` refuses POST /auth/login with 403 password_sign_in_disabled and hides the form (single sign-on only, docs/sso.md); API tokens and the operator CLI are unaffected.',
    true,
  ),
  oidcIssuer: urlVar(
    'MERIDIAN_OIDC_ISSUER',
    'Single sign-on to the console: the OpenID Connect issuer URL (its discovery document is read at start). `https://` only, except on a loopback host. Unset: no single sign-on (docs/sso.md).',
    ['https:', 'http:'],
  ),
  oidcClientId: optionalStringVar(
    'MERIDIAN_OIDC_CLIENT_ID',
    'Client id of this server at the OpenID Connect provider (required with MERIDIAN_OIDC_ISSUER).',
  ),
  oidcClientSecret: optionalStringVar(
    'MERIDIAN_OIDC_CLIENT_SECRET',
    'Client secret at the OpenID Connect provider (required with MERIDIAN_OIDC_ISSUER); never logged. It also keys the signature of the short-lived sign-in cookie, so every replica needs the same value.',
  ),
  oidcProviderName: optionalStringVar(
    'MERIDIAN_OIDC_NAME',
    'Name on the console\'s "Sign in with …" button. Unset: the issuer\'s host name.',
  ),
  oidcAllowedDomains: listVar(
    'MERIDIAN_OIDC_ALLOWED_DOMAINS',
    'Comma-separated email domains (`example.com`, matched exactly, case-insensitive) whose verified addresses may sign in with single sign-on; `*` allows any domain. Required with MERIDIAN_OIDC_ISSUER: the start refuses an empty list rather than admit every account of the provider.',
    [],
  ),
  oidcDefaultRole: enumVar(
    'MERIDIAN_OIDC_DEFAULT_ROLE',
    'Role of an account created at its first single sign-on (`viewer` or `member`; an admin is made with `meridian users set-role`).',
    ['viewer', 'member'] as const,
    'viewer',
  ),
  oidcDefaultPlan: enumVar(
    'MERIDIAN_OIDC_DEFAULT_PLAN',
    'Plan of an account created at its first single sign-on.',
    ['standard', 'pro'] as const,
    'standard',
  ),
  corsOrigins: listVar(
    'MERIDIAN_CORS_ORIGINS',
    "Comma-separated origins (e.g. https://app.example.com) whose browser apps may call the API (CORS); `*` allows any. The server's own origin (the console) is always allowed; default: no other.",
    [],
  ),
  allowedHosts: {
    ...listVar(
      'MERIDIAN_ALLOWED_HOSTS',
      'Comma-separated host names (ports ignored) the server answers to besides localhost, 127.0.0.1, [::1] and HOST, and any IP address when HOST is 0.0.0.0 or ::; a request naming another host in `Host` is answered 421 misdirected_request (against DNS rebinding). Behind a reverse proxy that passes `Host` through, list the public names. `*` turns the check off.',
      [],
    ),
    parse: (raw: string | undefined): string[] => {
      const names = (raw ?? '')
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const bad = names.find((name) => /[\s/@]/.test(name));
      if (bad !== undefined)
        throw new Error(
          `MERIDIAN_ALLOWED_HOSTS entry ${JSON.stringify(bad)} is not a host name: write api.example.com (a port is ignored), without scheme or path, or * alone`,
        );
      return names;
    },
  },
  wsAllowedOrigins: listVar(
    'MERIDIAN_WS_ALLOWED_ORIGINS',
    'Comma-separated Origin values allowed to open WebSockets; empty allows any origin (token still required).',
    [],
  ),
  wsConnectionsStandard: intVar(
    'MERIDIAN_WS_CONNECTIONS_STANDARD',
    'Concurrent push-channel (WebSocket) connections per account on the standard plan.',
    5,
    { min: 1, max: 100_000 },
  ),
  wsConnectionsPro: intVar(
    'MERIDIAN_WS_CONNECTIONS_PRO',
    'Concurrent push-channel (WebSocket) connections per account on the pro plan.',
    50,
    { min: 1, max: 100_000 },
  ),
  wsSendBufferBytes: intVar(
    'MERIDIAN_WS_SEND_BUFFER_BYTES',
    'Bytes queued for one push-channel client before it is disconnected as a slow consumer (close 4408).',
    1_048_576,
    { min: 1_024, max: 1_073_741_824 },
  ),
  wsPingIntervalMs: intVar(
    'MERIDIAN_WS_PING_INTERVAL_MS',
    'Push-channel protocol ping period; a client that has not answered the previous ping is dropped.',
    30_000,
    { min: 100, max: 3_600_000 },
  ),
  chainSource: {
    name: 'MERIDIAN_CHAIN_SOURCE',
    description:
      'On-chain source: `simulated` (embedded, deterministic) or `evm:<json-rpc-url>` (an EVM node over HTTP(S), read with viem).',
    defaultText: 'simulated',
    parse: (raw: string | undefined): { kind: 'simulated' } | { kind: 'evm'; rpcUrl: string } => {
      if (raw === undefined || raw === '' || raw === 'simulated') return { kind: 'simulated' };
      if (raw.startsWith('evm:')) {
        const rpcUrl = raw.slice(4);
        // Not a URL, or not HTTP(S): refused below.
        if (URL.canParse(rpcUrl) && ['http:', 'https:'].includes(new URL(rpcUrl).protocol))
          return { kind: 'evm', rpcUrl };
      }
      throw new Error(
        `MERIDIAN_CHAIN_SOURCE=${JSON.stringify(raw)} is not valid: simulated or evm:<http(s) URL>`,
      );
    },
  },
  labelsPath: listVar(
    'MERIDIAN_LABELS_PATH',
    'Comma-separated extra exchange-label files or folders (CSV, JSON, or explorer exports such as etherscan-accounts.json), applied after the built-in set in order; for the same chain and address a later file overrides an earlier one.',
    [],
  ),
  privateLabelsMax: intVar(
    'MERIDIAN_PRIVATE_LABELS_MAX',
    'Private address labels (POST /api/labels) an account may hold; a new one beyond it is refused with 409 label_limit_reached.',
    1000,
    { min: 0, max: 100_000 },
  ),
  chainConfirmations: intVar(
    'MERIDIAN_CHAIN_CONFIRMATIONS',
    'Blocks the EVM indexer stays behind the head.',
    12,
    {
      min: 0,
      max: 1000,
    },
  ),
  chainTokens: {
    name: 'MERIDIAN_CHAIN_TOKENS',
    description:
      'ERC-20 tokens the EVM indexer reads, as `SYMBOL:0xADDRESS:DECIMALS,…`; unset = mainnet USDT, USDC, WETH, DAI.',
    defaultText: '(unset)',
    parse: (
      raw: string | undefined,
    ): Array<{ symbol: string; address: string; decimals: number }> | undefined => {
      if (raw === undefined || raw.trim() === '') return undefined;
      return raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean)
        .map((entry) => {
          const m = /^([A-Za-z0-9.]{1,20}):(0x[0-9a-fA-F]{40}):(\d{1,2})$/.exec(entry);
          if (!m)
            throw new Error(
              `MERIDIAN_CHAIN_TOKENS entry ${JSON.stringify(entry)} is not SYMBOL:0xADDRESS:DECIMALS`,
            );
          return {
            symbol: (m[1] as string).toUpperCase(),
            address: (m[2] as string).toLowerCase(),
            decimals: Number(m[3]),
          };
        });
    },
  },
  chainPollMs: intVar(
    'MERIDIAN_CHAIN_POLL_MS',
    'How often the chain indexer polls for new blocks when caught up.',
    1000,
    {
      min: 50,
      max: 60_000,
    },
  ),
  chainStaleMs: intVar(
    'MERIDIAN_CHAIN_STALE_MS',
    'On-chain flows are marked stale (`Meridian-Stale: true`) when the newest indexed block is older than this (ms; the confirmations the indexer waits for come on top).',
    180_000,
    { min: 1_000, max: 86_400_000 },
  ),
  chainBackfillBlocks: intVar(
    'MERIDIAN_CHAIN_BACKFILL_BLOCKS',
    'On the very first start (no checkpoint), how many blocks before the head to index.',
    300,
    { min: 0, max: 1_000_000 },
  ),
  chains: {
    name: 'MERIDIAN_CHAINS',
    description:
      'The chains to index, one indexer each: a JSON array (or the path of a JSON file) of `{ name, chainId?, rpcUrl ("simulated" or http(s)), confirmations?, nativeAsset?, tokens?: [{ symbol, address }] }`. Unset: one chain (`ethereum`) from MERIDIAN_CHAIN_SOURCE, or with the simulated source three simulated chains (ethereum, arbitrum, bsc).',
    defaultText: '(unset)',
    parse: (raw: string | undefined): ChainSpec[] | undefined => parseChains(raw),
  },
  marketSource: {
    name: 'MERIDIAN_MARKET_SOURCE',
    description:
      'Market data source: `simulated` (embedded, deterministic multi-venue market), `replay:<folder>` (recorded freqtrade JSON / CSV candle files played back) or `ccxt:<venue,venue,…>` (live venues over REST + WebSocket).',
    defaultText: 'simulated',
    parse: (
      raw: string | undefined,
    ): { kind: 'simulated' } | { kind: 'replay'; folder: string } | { kind: 'ccxt'; venues: string[] } => {
      if (raw === undefined || raw === '' || raw === 'simulated') return { kind: 'simulated' };
      if (raw.startsWith('replay:') && raw.length > 7) return { kind: 'replay', folder: raw.slice(7) };
      if (raw.startsWith('ccxt:')) {
        const venues = raw
          .slice(5)
          .split(',')
          .map((v) => v.trim().toLowerCase())
          .filter(Boolean);
        if (venues.length) return { kind: 'ccxt', venues };
      }
      throw new Error(
        `MERIDIAN_MARKET_SOURCE=${JSON.stringify(raw)} is not valid: simulated, replay:<folder> or ccxt:<venue,venue,…>`,
      );
    },
  },
  universe: {
    name: 'MERIDIAN_SYMBOLS',
    description: `Supported symbols: a comma-separated list (any accepted spelling; normalized to BASEQUOTE), or \`top:N\` (N from 1 to ${MAX_TOP_SYMBOLS}) for the N most liquid markets of the source — simulated: a generated universe of N markets; ccxt: the N spot pairs with the largest USD quote volume summed over the venues, ranked at start (a daily re-ranking is logged and applied at the next restart); replay: the N symbols of the folder with the largest recorded quote volume (docs/market.md, "The universe"). Unsupported requests fall back to BTCUSDT when listed.`,
    defaultText: DEFAULT_SYMBOL_LIST.join(','),
    parse: (raw: string | undefined): SymbolUniverse => {
      if (raw === undefined || raw.trim() === '') return { kind: 'list', symbols: [...DEFAULT_SYMBOL_LIST] };
      const entries = raw
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      const top = /^top\s*:\s*(\d{1,9})$/i.exec(raw.trim());
      const count = top ? Number(top[1]) : 0;
      if (top && count >= 1 && count <= MAX_TOP_SYMBOLS) return { kind: 'top', count };
      if (top || entries.some((e) => /^top\s*:/i.test(e)) || entries.length === 0)
        throw new Error(
          `MERIDIAN_SYMBOLS=${JSON.stringify(raw)} is not valid: top:N with N an integer from 1 to ${MAX_TOP_SYMBOLS} (on its own), or a comma-separated list of symbols`,
        );
      return { kind: 'list', symbols: entries };
    },
  },
  simSeed: intVar('MERIDIAN_SIM_SEED', 'Seed of the simulated market (same seed, same prices).', 42, {
    min: 0,
    max: 2_147_483_647,
  }),
  replaySpeed: intVar(
    'MERIDIAN_REPLAY_SPEED',
    'Replay speed: recorded seconds played per wall-clock second.',
    60,
    { min: 1, max: 1_000_000 },
  ),
  replayStrict: boolVar(
    'MERIDIAN_REPLAY_STRICT',
    'Replay refuses to start when a configured symbol has no candle file in the folder (otherwise it is named in a warning and left out).',
    false,
  ),
  resetDerived: boolVar(
    'MERIDIAN_RESET_DERIVED',
    'Start with a market source other than the one this database was first started with: clears what was derived from the old source (predictions, their gaps, stored candles) first. Same as `serve --reset-derived`.',
    false,
  ),
  marketStaleMs: intVar(
    'MERIDIAN_MARKET_STALE_MS',
    'A venue with no book or trade update for this long is flagged stale and left out of the merge.',
    15_000,
    { min: 100, max: 3_600_000 },
  ),
  marketOutlierBps: intVar(
    'MERIDIAN_MARKET_OUTLIER_BPS',
    'A venue whose mid is further than this (bps) from the median of fresh venues is flagged outlier and left out of the merge (needs 3+ fresh venues).',
    100,
    { min: 1, max: 10_000 },
  ),
  marketNotional: intVar(
    'MERIDIAN_MARKET_NOTIONAL',
    'Default notional (USD) of the slippage figures in GET /api/market-data.',
    100_000,
    { min: 1, max: 1_000_000_000 },
  ),
  marketHistoryDays: intVar(
    'MERIDIAN_MARKET_HISTORY_DAYS',
    'Days of history offered by GET /api/market-history: computed on read (simulated) or backfilled into storage in the background after start (ccxt, replay). Memory holds only the working window (about 4 days of minutes per symbol), whatever this is.',
    30,
    { min: 1, max: 365 },
  ),
  // ── derivatives (perpetual funding, open interest, basis, liquidations; docs/derivatives.md) ──
  derivativesVenues: listVar(
    'MERIDIAN_DERIVATIVES_VENUES',
    "With MERIDIAN_MARKET_SOURCE=ccxt:…: the ccxt ids of the perpetual venues polled for funding, open interest and liquidations (e.g. binance,okx,bybit); default: the market source's venues. The simulated and replay markets bring their own.",
    [],
  ),
  derivativesRefreshMs: intVar(
    'MERIDIAN_DERIVATIVES_REFRESH_MS',
    "How often every symbol's perpetual metrics are polled, merged, stored and pushed.",
    60_000,
    { min: 1_000, max: 3_600_000 },
  ),
  derivativesStaleMs: intVar(
    'MERIDIAN_DERIVATIVES_STALE_MS',
    'A venue whose derivatives reading is older than this is flagged stale and left out of the merge.',
    300_000,
    { min: 1_000, max: 86_400_000 },
  ),
  derivativesHistoryDays: intVar(
    'MERIDIAN_DERIVATIVES_HISTORY_DAYS',
    'Days of funding and open-interest history backfilled in the background after start from venues that offer it.',
    30,
    { min: 1, max: 3_650 },
  ),
  retainFundingDays: intVar(
    'MERIDIAN_RETAIN_FUNDING_DAYS',
    'Days of settled funding rates kept in storage (three points a day per symbol). 0 keeps them forever.',
    0,
    { min: 0, max: 36_500 },
  ),
  retainOpenInterestDays: intVar(
    'MERIDIAN_RETAIN_OPEN_INTEREST_DAYS',
    'Days of open-interest points (one a minute per symbol) kept in storage. 0 keeps them forever.',
    90,
    { min: 0, max: 36_500 },
  ),
  retainBasisDays: intVar(
    'MERIDIAN_RETAIN_BASIS_DAYS',
    'Days of basis points (one a minute per symbol) kept in storage. 0 keeps them forever.',
    90,
    { min: 0, max: 36_500 },
  ),
  retainLiquidationsDays: intVar(
    'MERIDIAN_RETAIN_LIQUIDATIONS_DAYS',
    'Days of liquidation sums (per minute with liquidations, per symbol) kept in storage. 0 keeps them forever.',
    90,
    { min: 0, max: 36_500 },
  ),
  marketPartitions: intVar(
    'MERIDIAN_MARKET_PARTITIONS',
    'Scaled mode: the symbols split into this many partitions by a stable hash of the symbol; each partition (its market feed, history and model refresh) is led by one worker under a lease of its own (`market:<n>`), a worker taking up to ceil(partitions / live workers). 1 runs the market and the model as one job each. More than 1 needs PostgreSQL (DATABASE_URL) and a live source (simulated or ccxt); docs/operations.md, "Partitions".',
    1,
    { min: 1, max: 1_024 },
  ),
  usageFlushMs: intVar(
    'MERIDIAN_USAGE_FLUSH_MS',
    'How often each API process adds its in-memory API usage counts (requests and 429s per account and endpoint) to storage; usage seen by other replicas lags by at most this.',
    10_000,
    { min: 100, max: 300_000 },
  ),
  analyticsCacheMs: intVar(
    'MERIDIAN_ANALYTICS_CACHE_MS',
    "How long an account's GET /api/dashboard/analytics answer is reused (its generatedAt says when it was computed); 0 computes every request.",
    1_000,
    { min: 0, max: 60_000 },
  ),
  alertsActiveStandard: intVar(
    'MERIDIAN_ALERTS_ACTIVE_STANDARD',
    'Active (and failing) alert rules an account on the standard plan may have; paused and finished rules do not count.',
    50,
    { min: 0, max: 1_000_000 },
  ),
  alertsActivePro: intVar(
    'MERIDIAN_ALERTS_ACTIVE_PRO',
    'Active (and failing) alert rules an account on the pro plan may have.',
    1000,
    { min: 0, max: 1_000_000 },
  ),
  modelRefreshMs: intVar(
    'MERIDIAN_MODEL_REFRESH_MS',
    'Period of the prediction model refresh (worker role): one datapoint per symbol and horizon each time.',
    60_000,
    { min: 1_000, max: 3_600_000 },
  ),
  secretsKey: {
    ...optionalStringVar(
      'MERIDIAN_SECRETS_KEY',
      'Operator secret (32+ characters) from which the key encrypting webhook signing secrets and two-factor (TOTP) secrets at rest (AES-256-GCM) is derived. Unset: embedded mode generates `secrets.key` (0600) in the data folder; scaled mode refuses webhook creation and two-factor enrolment, and does not deliver, until it is set (every replica needs the same value).',
    ),
    parse: (raw: string | undefined): string | undefined => {
      if (raw === undefined || raw === '') return undefined;
      if (raw.length < 32)
        throw new Error(
          'MERIDIAN_SECRETS_KEY is not valid: at least 32 characters (e.g. `openssl rand -base64 32`)',
        );
      return raw;
    },
  },
  webhookAllow: listVar(
    'MERIDIAN_WEBHOOK_ALLOW',
    'Comma-separated CIDRs (`127.0.0.1/32`, `fd00::/8`) and host names webhook deliveries may reach although they are loopback, private, link-local or otherwise internal (self-hosted receivers, tests).',
    [],
  ),
  webhookAllowHttp: boolVar(
    'MERIDIAN_WEBHOOK_ALLOW_HTTP',
    'Accept plain `http://` webhook URLs (otherwise only `https://`).',
    false,
  ),
  webhookRetrySchedule: durationListVar(
    'MERIDIAN_WEBHOOK_RETRY_SCHEDULE',
    'Delays between webhook delivery attempts (each ±20 % jitter); the delivery fails for good after the last.',
    ['5s', '1m', '5m', '30m', '2h', '5h', '8h', '8h'],
  ),
  webhookTimeoutMs: intVar(
    'MERIDIAN_WEBHOOK_TIMEOUT_MS',
    'Time a webhook receiver has to answer one attempt (connect, headers and body).',
    10_000,
    { min: 100, max: 60_000 },
  ),
  webhookConcurrency: intVar(
    'MERIDIAN_WEBHOOK_CONCURRENCY',
    'Deliveries in flight at once to one webhook endpoint.',
    4,
    { min: 1, max: 100 },
  ),
  smtpUrl: urlVar(
    'MERIDIAN_SMTP_URL',
    'SMTP server that sends alert emails and address verification codes (`smtps://user:pass@host:465`, `smtp://host:587` with STARTTLS, `?tls=off` for a local relay without TLS). Unset: email channels cannot be created.',
    ['smtp:', 'smtps:'],
  ),
  smtpFrom: stringVar(
    'MERIDIAN_SMTP_FROM',
    'The From: of alert emails.',
    'Meridian Alerts <alerts@localhost>',
  ),
  telegramApiUrl: stringVar(
    'MERIDIAN_TELEGRAM_API_URL',
    'Telegram Bot API base URL (alert channels of type telegram call `<base>/bot<token>/sendMessage`).',
    'https://api.telegram.org',
  ),
  discordWebhookBase: stringVar(
    'MERIDIAN_DISCORD_WEBHOOK_BASE',
    'The prefix every Discord channel webhook URL must have.',
    'https://discord.com/api/webhooks/',
  ),
  slackWebhookBase: stringVar(
    'MERIDIAN_SLACK_WEBHOOK_BASE',
    'The prefix every Slack channel incoming-webhook URL must have.',
    'https://hooks.slack.com/services/',
  ),
  consoleUrl: optionalStringVar(
    'MERIDIAN_CONSOLE_URL',
    "Public URL of the console, for `{{console_url}}` in alert messages, the link in address verification emails (unset: left out) and the single sign-on redirect URI `<url>/auth/oidc/callback` (unset: from the request's scheme and Host).",
  ),
  alertMessagesRuleStandard: intVar(
    'MERIDIAN_ALERT_MESSAGES_RULE_STANDARD',
    'Messages to email, Telegram, Discord and Slack channels one alert rule may send per hour on the standard plan; beyond it they are recorded as capped (webhooks are not capped).',
    20,
    { min: 0, max: 1_000_000 },
  ),
  alertMessagesRulePro: intVar(
    'MERIDIAN_ALERT_MESSAGES_RULE_PRO',
    'Messages per alert rule per hour to email and chat channels on the pro plan.',
    120,
    { min: 0, max: 1_000_000 },
  ),
  alertMessagesAccountStandard: intVar(
    'MERIDIAN_ALERT_MESSAGES_ACCOUNT_STANDARD',
    'Messages per account per hour to email and chat channels on the standard plan.',
    100,
    { min: 0, max: 1_000_000 },
  ),
  alertMessagesAccountPro: intVar(
    'MERIDIAN_ALERT_MESSAGES_ACCOUNT_PRO',
    'Messages per account per hour to email and chat channels on the pro plan.',
    1_000,
    { min: 0, max: 1_000_000 },
  ),
  eventRetentionHours: intVar(
    'MERIDIAN_EVENT_RETENTION_HOURS',
    'Hours account events are kept for `/events` resume (`?after=`) before the retention job prunes them.',
    48,
    { min: 24, max: 8_760 },
  ),
} satisfies Record<string, Variable<unknown>>;

type Variables = typeof variables;
export type Config = Readonly<{ [K in keyof Variables]: ReturnType<Variables[K]['parse']> }> & {
  readonly storage: 'pglite' | 'postgres';
  readonly shared: 'memory' | 'redis';
};

/** Parses every variable; collects all problems before failing so the operator fixes them in one go. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const problems: string[] = [];
  const out: Record<string, unknown> = {};
  for (const [key, variable] of Object.entries(variables)) {
    try {
      out[key] = variable.parse(env[variable.name]);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  if (!problems.length)
    problems.push(...crossProblems(out as CrossChecked), ...oidcProblems(out as OidcSettings));
  if (problems.length) throw new ConfigError(problems);
  out.storage = out.databaseUrl ? 'postgres' : 'pglite';
  out.shared = out.redisUrl ? 'redis' : 'memory';
  return Object.freeze(out) as Config;
}

type CrossChecked = Pick<Config, 'marketPartitions' | 'databaseUrl' | 'marketSource'>;
type OidcSettings = Pick<Config, 'oidcIssuer' | 'oidcClientId' | 'oidcClientSecret' | 'oidcAllowedDomains'>;

/** Rules that span variables (each variable alone was valid). */
function crossProblems(c: CrossChecked): string[] {
  const problems: string[] = [];
  if (c.marketPartitions > 1 && !c.databaseUrl)
    problems.push(
      'MERIDIAN_MARKET_PARTITIONS above 1 needs PostgreSQL (DATABASE_URL): partitions are leased to workers in its leases table; embedded storage is one process, which runs every symbol',
    );
  if (c.marketPartitions > 1 && c.marketSource.kind === 'replay')
    problems.push(
      'MERIDIAN_MARKET_PARTITIONS above 1 needs a live source (simulated or ccxt): a replay plays one recorded clock, which partitions started at different times would not share',
    );
  return problems;
}

const loopbackHosts = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Single sign-on needs its client credentials and an explicit domain list; plain http only on loopback. */
function oidcProblems(c: OidcSettings): string[] {
  const problems: string[] = [];
  if (!c.oidcIssuer) {
    if (c.oidcClientId || c.oidcClientSecret)
      problems.push('MERIDIAN_OIDC_CLIENT_ID and MERIDIAN_OIDC_CLIENT_SECRET need MERIDIAN_OIDC_ISSUER');
    return problems;
  }
  if (!c.oidcClientId) problems.push('MERIDIAN_OIDC_ISSUER needs MERIDIAN_OIDC_CLIENT_ID');
  if (!c.oidcClientSecret) problems.push('MERIDIAN_OIDC_ISSUER needs MERIDIAN_OIDC_CLIENT_SECRET');
  if (!c.oidcAllowedDomains.length)
    problems.push(
      'MERIDIAN_OIDC_ISSUER needs MERIDIAN_OIDC_ALLOWED_DOMAINS: the email domains allowed to sign in (example.com,example.org), or * for any',
    );
  const issuer = new URL(c.oidcIssuer);
  if (issuer.protocol === 'http:' && !loopbackHosts.has(issuer.hostname))
    problems.push(
      'MERIDIAN_OIDC_ISSUER must be https:// (plain http:// is accepted only on a loopback host)',
    );
  return problems;
}

export class ConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid configuration:\n  ${problems.join('\n  ')}`);
    this.name = 'ConfigError';
  }
}

/** The README table, generated from the schema. */
export function configMarkdownTable(): string {
  const rows = Object.values(variables).map(
    (v) =>
      `| \`${v.name}\` | ${v.defaultText === '(unset)' ? '(unset)' : `\`${v.defaultText}\``} | ${v.description} |`,
  );
  return ['| Variable | Default | Meaning |', '|---|---|---|', ...rows].join('\n');
}
