import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import { openStorage } from './storage.ts';
import { migrateToLatest } from '../adapters/db/migrate.ts';
import { checkDataSource, marketSourceIdentity } from './data-source.ts';
import { postgresLeadership } from '../adapters/leadership/postgres.ts';
import { singleProcessLeadership } from '../adapters/leadership/single-process.ts';
import type { Config } from '../config/env.ts';
import type { AccountsService, PasswordHasher } from '../modules/accounts/index.ts';
import type { OAuthService } from '../modules/oauth/index.ts';
import type { SupportedSymbols } from '../modules/identifiers/index.ts';
import { topics } from '../shared/bus.ts';
import type { AppBus } from './bus-topics.ts';
import { buildCoordination } from './coordination.ts';
import { type Clock, systemClock } from '../shared/clock.ts';
import type { ConnectionSlotsFactory } from '../shared/connection-slots.ts';
import type { RateLimiter } from '../shared/rate-limiter.ts';
import { announceOn, buildAccounts } from './accounts.ts';
import { buildOAuth, oauthRetentionJob } from './oauth.ts';
import { buildAudit } from './audit.ts';
import type { AuditService } from '../modules/audit/index.ts';
import { type AlertsModule, buildAlerts } from './alerts.ts';
import type { Job } from './jobs.ts';
import { heartbeatJob, heartbeatMonitor } from './worker-heartbeat.ts';
import type { DestinationStream } from 'pino';
import type { CcxtExchange } from '../adapters/market/ccxt/index.ts';
import { type Logger, createLogger } from '../observability/logger.ts';
import { type MarketModule, buildMarket } from './market.ts';
import { type DerivativesModule, buildDerivatives } from './derivatives.ts';
import { publicSourceLabel } from '../config/source-label.ts';
import { type IndexedChain, type OnchainModule, buildOnchain } from './onchain.ts';
import { retentionJob } from './retention.ts';
import type { ReadinessReport } from '../shared/readiness.ts';
import { readinessCheck } from './readiness.ts';
import { type SsoModule, buildSso } from './sso.ts';
import { type PredictionsModule, buildPredictions } from './predictions.ts';
import { type PartitionsModule, buildPartitions } from './partitions.ts';
import { type PortfolioModule, buildPortfolio } from './portfolio.ts';
import { type LabelsModule, buildLabels } from './labels.ts';
import type { AlertsSummarySource } from '../modules/analytics/index.ts';
import { type WebhooksBuildOptions, type WebhooksModule, buildWebhooks } from './webhooks.ts';
import { type Metrics, createMetrics } from '../observability/metrics.ts';
import { logAndIgnore } from '../shared/log-and-ignore.ts';

export interface ContainerOptions {
  clock?: Clock;
  /** Tests pass a cheaper hasher; production always uses argon2id. */
  hasher?: PasswordHasher;
  /** Tests pass a pre-opened (e.g. snapshot-loaded) database. */
  db?: DbHandle;
  /**
   * Storage the caller began opening (`serve` starts it before loading the app's modules, so a PGlite thread
   * loads its data folder meanwhile); the container owns it as if it had opened it.
   */
  storage?: Promise<DbHandle>;
  /** The process's logger, when the caller made it first; default one on `logStream`. */
  logger?: Logger;
  /** Skip migrations (the database is known to be migrated). */
  skipMigrations?: boolean;
  /**
   * Check (and at first start record) the market source the database's derived data came from. Always on for a
   * database the container opens itself; tests passing a shared database opt in.
   */
  checkDataSource?: boolean;
  /** Tests may replace the alerts module as the dashboard's source of alert counts and recent triggers. */
  alertsSummary?: AlertsSummarySource;
  /** Webhook delivery overrides (tests: DNS answers, sender timings, a hook between claim and send). */
  webhooks?: WebhooksBuildOptions;
  /** Lease of job leadership (PostgreSQL only); default MERIDIAN_LEADER_LEASE_MS. */
  leaderLeaseMs?: number;
  /** Redis channel prefix of the bus (tests isolate several containers of one test); default `meridian:bus:`. */
  busChannelPrefix?: string;
  /** Where log lines go (default stdout); tests read them. */
  logStream?: DestinationStream;
  /** The ccxt exchange object per venue (tests point it at local ports); default ccxt's own. */
  marketExchange?: (venue: string) => CcxtExchange | Promise<CcxtExchange>;
}

/**
 * The composition root: the only place that knows which adapter fills which port. Everything a process
 * needs is built here from the config; entry points decide which parts to run (API, jobs).
 */
export interface Container {
  config: Config;
  clock: Clock;
  db: DbHandle;
  bus: AppBus;
  redis?: Redis;
  limiter: RateLimiter;
  /** Push connection caps per account: one process counts in memory, replicas share Redis. */
  connectionSlots: ConnectionSlotsFactory;
  metrics: Metrics;
  logger: Logger;
  accounts: AccountsService;
  /** The OAuth 2.0 authorization server for third-party apps (its access tokens are API tokens). */
  oauth: OAuthService;
  /** The audit log: `record` is the port every security-relevant action goes through. */
  audit: AuditService;
  /** Single sign-on to the console (MERIDIAN_OIDC_ISSUER): the provider the sign-in routes use. */
  sso?: SsoModule;
  /** The supported symbol set (made by the market's build from the configuration and the source). */
  symbols: SupportedSymbols;
  /** On-chain flows: address book, chain source, indexer (a job below), service for the flows route. */
  market: MarketModule;
  /** Perpetual funding, open interest, basis and liquidations (a job below; followers adopt its updates). */
  derivatives: DerivativesModule;
  onchain: OnchainModule;
  predictions: PredictionsModule;
  /** Portfolio import and holdings, the API usage counter and dashboard analytics. */
  portfolio: PortfolioModule;
  /** Private address labels: each account's own (flows view, address-flow alert targets). */
  labels: LabelsModule;
  /** Alert rules (service for the routes) and their evaluator (a job below). */
  alerts: AlertsModule;
  /** Webhook endpoints, the delivery sender and the account event log's retention (jobs below). */
  webhooks: WebhooksModule;
  /** MERIDIAN_MARKET_PARTITIONS > 1: the partitions' campaign and the partitions this process leads. */
  partitions?: PartitionsModule;
  /** Background jobs, run by the worker role (and by `all`). */
  jobs: Job[];
  /** What an API-only process runs instead of the jobs: followers that reload state the workers publish. */
  apiFollowers: Job[];
  /** Checks for /readyz: name → error text, or null when fine. */
  readiness(): Promise<ReadinessReport>;
  close(): Promise<void>;
}

export async function buildContainer(config: Config, options: ContainerOptions = {}): Promise<Container> {
  const clock = options.clock ?? systemClock;
  const metrics = createMetrics();
  const logger = options.logger ?? createLogger(config.logLevel, options.logStream);
  const storageLog = logger.child({ module: 'storage' });
  const db = options.db ?? (await (options.storage ?? openStorage(config, storageLog)));
  if (!options.skipMigrations) await migrateToLatest(db.db);
  if (!options.db || options.checkDataSource)
    await checkDataSource(tablesOf<unknown>(db.db), marketSourceIdentity(config.marketSource), {
      reset: config.resetDerived,
      now: clock.now(),
      log: logger,
    }).catch(async (error) => {
      // The data-source refusal is what the operator must see; a failed close is only logged.
      if (!options.db)
        await db.close().catch(logAndIgnore(storageLog, 'closing storage after a refused start failed'));
      throw error;
    });

  const shared = await buildCoordination(config, {
    clock,
    metrics,
    logger,
    busChannelPrefix: options.busChannelPrefix ?? config.busChannelPrefix,
  });
  const { redis, bus, limiter, connectionSlots } = shared;

  const accounts = await buildAccounts(config, {
    db,
    clock,
    hasher: options.hasher,
    announce: announceOn(bus, logger.child({ module: 'accounts' })),
    log: logger.child({ module: 'accounts' }),
  });
  const audit = buildAudit({ db, clock, logger: logger.child({ module: 'audit' }) });
  const sso = await buildSso(config, logger.child({ module: 'sso' }));
  // One topic for "cached credentials are stale": a revoked token (by hash) or a user whose role or plan changed.
  await bus.subscribe(topics.tokenRevoked, (change) => {
    if ('hash' in change) accounts.dropCached(change.hash);
    if ('userId' in change) accounts.dropUser(change.userId);
    if ('orgId' in change) accounts.dropOrg(change.orgId);
  });
  const oauth = buildOAuth(config, { db, clock, accounts, audit });

  const jobs: Job[] = [];
  // Each background job runs in exactly one worker of the cluster (embedded: the only process).
  const leadership =
    db.kind === 'postgres'
      ? postgresLeadership(tablesOf(db.db), {
          leaseMs: options.leaderLeaseMs ?? config.leaderLeaseMs,
          log: logger.child({ module: 'leadership' }),
        })
      : singleProcessLeadership();

  // ── modules: construct each module here and push its background jobs ──
  const market = await buildMarket(config, {
    db,
    bus,
    clock,
    logger: logger.child({ module: 'market' }),
    createExchange: options.marketExchange,
  });
  // MERIDIAN_MARKET_PARTITIONS > 1: the market and the model refresh run per partition (below), never as one job.
  const partitioned = config.marketPartitions > 1;
  if (!partitioned) jobs.push(leadership.leaderOnly(market.job));
  // One clock for the data: a replay plays recorded time, and every time derived from the market (forecasts,
  // their scoring, flows, retention of derived rows) follows it. Accounts, limits, alerts and webhook
  // deliveries stay on wall time: they happen in the real world (docs/operations.md, "One clock in replay").
  const dataClock = market.source.clock ?? clock;
  const derivatives = await buildDerivatives(config, {
    db,
    bus,
    dataClock,
    symbols: market.symbols.list,
    sourceLabel: publicSourceLabel(config.marketSource),
    logger: logger.child({ module: 'derivatives' }),
  });
  jobs.push(leadership.leaderOnly(derivatives.job));
  const onchain = await buildOnchain(config, {
    db,
    bus,
    clock: dataClock,
    // A replayed market gets a simulated chain that starts a day before the replay (its blocks, and so its
    // flows, are on the recording's clock too).
    simulatedGenesisMs: market.source.clock
      ? Math.floor(dataClock.now() / 86_400_000) * 86_400_000 - 86_400_000
      : undefined,
    prices: market.service,
    logger: logger.child({ module: 'onchain' }),
  });
  // One indexer per chain, each with its own lease: one chain is one leader-elected job, several are spread
  // over the workers like the market partitions.
  if (onchain.chains.length === 1) jobs.push(leadership.leaderOnly((onchain.chains[0] as IndexedChain).job));
  else
    jobs.push(
      leadership.fairShare(
        'onchain',
        onchain.chains.map((c) => c.job),
      ),
    );
  const predictions = buildPredictions(config, {
    db,
    bus,
    clock: dataClock,
    market: market.service,
    derivatives: derivatives.service,
    logger: logger.child({ module: 'predictions' }),
  });
  let partitions: PartitionsModule | undefined;
  let stopFollowingHere: (() => Promise<void>) | undefined;
  if (!partitioned) jobs.push(leadership.leaderOnly(predictions.job));
  else {
    partitions = buildPartitions(config, {
      db,
      bus,
      dataClock,
      market,
      derivatives: derivatives.service,
      leadership,
      logger,
    });
    jobs.push(partitions.job, {
      // This process's market and predictions services serve the whole universe as an API replica's do: they
      // adopt every partition's snapshots (buildMarket) and reload the record on each partition's refresh.
      name: 'predictions-follower',
      start: async () => {
        stopFollowingHere = await predictions.follow();
      },
      stop: async () => {
        await stopFollowingHere?.();
      },
    });
  }
  const alerts = buildAlerts(config, {
    db,
    bus,
    clock,
    logger: logger.child({ module: 'alerts' }),
    market: market.service,
    onchain: onchain.service,
    derivatives,
    symbols: market.symbols,
    resolveExchange: (name) => onchain.service.resolveExchange(name),
    touchExcursions: predictions.service.touchExcursions,
  });
  jobs.push(leadership.leaderOnly(alerts.job));
  const labels = buildLabels(config, { db, clock });
  const portfolio = buildPortfolio(config, {
    db,
    clock,
    market: market.service,
    symbols: market.symbols,
    predictions: predictions.service,
    accounts,
    limiter,
    logger: logger.child({ module: 'portfolio' }),
    alerts: options.alertsSummary ?? alerts.service,
    oauth,
  });
  jobs.push(leadership.leaderOnly(portfolio.job));
  jobs.push(leadership.leaderOnly(oauthRetentionJob(oauth, logger.child({ module: 'oauth' }))));
  const webhooks = buildWebhooks(
    config,
    {
      db,
      bus,
      clock,
      logger: logger.child({ module: 'webhooks' }),
      metrics,
      rules: { exists: (accountId, ruleId) => alerts.service.ruleExists(accountId, ruleId) },
      exhausted: { onExhausted: (accountId, ruleId) => alerts.service.markRuleFailing(accountId, ruleId) },
      capped: (accountId, ruleId, until) => alerts.service.markRuleCapped(accountId, ruleId, until),
    },
    options.webhooks,
  );
  jobs.push(leadership.leaderOnly(webhooks.job), leadership.leaderOnly(webhooks.retentionJob));
  jobs.push(
    leadership.leaderOnly(
      retentionJob({
        db: tablesOf<unknown>(db.db),
        config,
        clock: dataClock,
        logger: logger.child({ module: 'retention' }),
      }),
    ),
  );
  jobs.push(heartbeatJob({ bus, clock, host: hostname(), logger: logger.child({ module: 'heartbeat' }) }));
  const workerMonitor = heartbeatMonitor({ bus, clock, metrics });
  let stopFollowing: (() => Promise<void>) | undefined;
  const apiFollowers: Job[] = [
    {
      name: 'predictions-follower',
      start: async () => {
        stopFollowing = await predictions.follow();
      },
      stop: async () => {
        await stopFollowing?.();
      },
    },
    workerMonitor.job,
  ];

  return {
    config,
    clock,
    db,
    bus,
    redis,
    limiter,
    connectionSlots,
    metrics,
    logger,
    accounts,
    oauth,
    audit,
    sso,
    symbols: market.symbols,
    market,
    derivatives,
    onchain,
    predictions,
    portfolio,
    labels,
    alerts,
    webhooks,
    partitions,
    jobs,
    apiFollowers,
    readiness: readinessCheck({
      config,
      db,
      redis,
      dataClock,
      market,
      derivatives,
      onchain,
      predictions,
      partitions,
      workerMonitor,
      sso,
    }),
    async close() {
      // Every process that served HTTP writes its last usage counts before storage closes.
      await portfolio.usage.stop();
      sso?.close();
      await leadership.close();
      await webhooks.transport.close();
      await shared.close();
      if (!options.db) await db.close();
    },
  };
}
