import type { Server } from 'node:net';
import type { Container } from '../app/container.ts';
import { jobRunner } from '../app/jobs.ts';
import { openStorage } from '../app/storage.ts';
import { createServer } from 'node:http';
import { opsListener } from '../http/ops-listener.ts';
import { type StartupGate, startupGate } from '../http/startup-gate.ts';
import { derivativesFeedAges } from '../app/health.ts';
import type { Config } from '../config/env.ts';
import { createLogger } from '../observability/logger.ts';
import { runOperatorCommand } from './operator-commands.ts';
import { listenAdminSocket } from './admin-socket.ts';
import { acquireDataDirLock, socketPath } from './data-dir-lock.ts';
import { logAndIgnore } from '../shared/log-and-ignore.ts';
import {
  type FirstStartCredentials,
  credentialsText,
  saveFirstStartCredentials,
} from './first-start-credentials.ts';

type Role = 'all' | 'api' | 'worker';

/**
 * `api` and `worker` are halves of one deployment that meet in shared storage and on the shared bus. With
 * PGlite only one process may open the data folder, and without Redis the halves cannot hear each other: an
 * API replica would serve empty market data and never push a refresh. Refused rather than started broken.
 */
export function splitRoleProblem(
  config: { storage: string; redisUrl?: string },
  role: string,
): string | undefined {
  if (role === 'all') return undefined;
  if (config.storage === 'pglite')
    return `--role ${role} needs PostgreSQL (DATABASE_URL): embedded storage is one process per data folder; run --role all`;
  if (!config.redisUrl)
    return `--role ${role} needs REDIS_URL: the api and worker roles exchange market snapshots, refreshes and revocations over Redis`;
  return undefined;
}

function listen(gate: StartupGate, config: Config): Promise<void> {
  return new Promise((resolve, reject) => {
    gate.server.once('error', reject);
    gate.server.listen(config.port, config.host, () => {
      gate.server.off('error', reject);
      resolve();
    });
  });
}

/** Runs the service in one process: API and/or background jobs, by role. Resolves once listening. */
export async function serve(config: Config, role: Role) {
  const lock = config.storage === 'pglite' ? acquireDataDirLock(config.dataDir, role) : undefined;
  // The API port answers from here: /readyz says what the start is doing until the jobs have started.
  const gate = role === 'worker' ? undefined : startupGate(config);
  let container: Container | undefined;
  let apiModule: Promise<typeof import('../http/server.ts')> | undefined;
  try {
    if (gate) await listen(gate, config);
    gate?.phase('opening storage and applying migrations');
    const logger = createLogger(config.logLevel);
    // Storage opens (PGlite loads its data folder on its own thread) while this thread loads the app.
    const storage = openStorage(config, logger.child({ module: 'storage' }));
    storage.catch(() => {}); // awaited below; a failure is thrown there, not left unhandled meanwhile
    // The API's modules load meanwhile too: the container's first steps mostly wait on storage.
    apiModule = gate ? import('../http/server.ts') : undefined;
    apiModule?.catch(() => {});
    const { buildContainer } = await import('../app/container.ts');
    container = await buildContainer(config, { storage, logger });
  } catch (error) {
    await gate?.close();
    lock?.release();
    throw error;
  }
  const c = container;
  // A promise nobody awaited failing (a background write while storage drops) must not end a server that
  // is otherwise fine. It is logged loudly — the fault suite fails on any such line — and the process goes on.
  process.on('unhandledRejection', (reason) => {
    c.logger.error({ err: reason }, 'unhandled promise rejection (process kept running)');
  });
  gate?.phase('building the API');
  const app = apiModule && gate ? await (await apiModule).buildServer(c, { gate }) : undefined;
  const log = app?.log;

  const bootstrap = await bootstrapFirstAdmin(c);
  const jobs = jobRunner(role === 'api' ? c.apiFollowers : c.jobs, c.logger, (job) =>
    gate?.phase(`starting ${job}`),
  );
  await jobs.start();
  let adminSocket: Server | undefined;
  if (lock)
    adminSocket = await listenAdminSocket(socketPath(config.dataDir), (argv) => runOperatorCommand(c, argv));

  if (app && gate) {
    await app.ready();
    gate.open();
  }
  // A worker serves no API, but its health and metrics on a port of their own (MERIDIAN_WORKER_PORT).
  const ops = role === 'worker' && config.workerPort !== undefined ? await listenOps(c, config) : undefined;
  const { watchHealth } = await import('../app/health-watch.ts');
  const health = watchHealth({
    readiness: () => c.readiness(),
    logger: c.logger.child({ module: 'health' }),
    metrics: c.metrics,
    feedAges: () => {
      const now = c.market.service.now();
      return c.market.service.symbols().flatMap((symbol) =>
        (c.market.service.freshness(symbol)?.venues ?? []).map((v) => ({
          venue: v.venue,
          symbol,
          ageSeconds: v.updatedAt === null ? null : Math.max(0, Math.round((now - v.updatedAt) / 1000)),
        })),
      );
    },
    derivativesFeedAges: () =>
      derivativesFeedAges(
        c.derivatives.service.views(c.derivatives.source.symbols),
        c.derivatives.service.now(),
      ),
  });
  const address = gate
    ? `http://${config.host}:${(gate.server.address() as { port: number }).port}`
    : undefined;
  if (bootstrap) announceFirstStart(c, bootstrap, address);

  process.stdout.write(
    `Meridian (${role}) running${address ? ` at ${address}` : ''}${ops ? ` — health and metrics at ${ops.address}` : ''} — storage ${config.storage}` +
      `${config.storage === 'pglite' ? ` in ${config.dataDir}` : ''}, shared state ${config.shared}` +
      `${address ? `\n  API docs: ${address}/docs   OpenAPI: ${address}/openapi.json` : ''}\n`,
  );
  let stopping = false;
  const stop = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    log?.info({ signal }, 'shutting down');
    await health.stop();
    ops?.close();
    // Shutdown goes on past a step that fails, so the data folder's lock is released; each failure is logged.
    await app?.close().catch(logAndIgnore(c.logger, 'closing the HTTP server failed'));
    await gate?.close();
    await jobs.stop();
    adminSocket?.close();
    await c.close().catch(logAndIgnore(c.logger, 'closing storage and Redis failed'));
    lock?.release();
  };
  return { app, container: c, stop, address };
}

/**
 * The first admin's secrets go to a 0600 file in the data folder, and to the terminal only when stdout is
 * one: stdout is otherwise a log stream (JSON lines kept by containers and journald). One log line says where
 * the file is, without the secrets.
 */
function announceFirstStart(c: Container, credentials: FirstStartCredentials, address: string | undefined) {
  const text = credentialsText(credentials, address);
  try {
    const file = saveFirstStartCredentials(c.config.dataDir, text);
    c.logger.info(
      { file, email: credentials.email },
      'first start: created the admin account; its password and API token are in this file (mode 0600)',
    );
  } catch (error) {
    c.logger.error(
      { dataDir: c.config.dataDir, error: error instanceof Error ? error.message : String(error) },
      'first start: created the admin account but could not write its credentials file; make one with `meridian tokens create --email <admin email> --name <name>`',
    );
  }
  if (process.stdout.isTTY) process.stdout.write(`\n${text}These are shown once.\n\n`);
}

async function bootstrapFirstAdmin(c: Container): Promise<FirstStartCredentials | undefined> {
  if ((await c.accounts.countUsers()) > 0) return undefined;
  const { user, generatedPassword } = await c.accounts.createUser({
    email: c.config.bootstrapAdminEmail,
    role: 'admin',
  });
  const { token, view } = await c.accounts.createToken(user.id, { name: 'bootstrap' });
  // The server made these at its first start: audited as the operator's, like the CLI's commands.
  const operator = { outcome: 'success', actorId: null, credential: 'operator', address: null } as const;
  await c.audit.record({
    ...operator,
    action: 'user.create',
    target: `user:${user.id}`,
    detail: { role: 'admin' },
  });
  await c.audit.record({
    ...operator,
    action: 'token.create',
    target: `token:${view.id}`,
    detail: { name: 'bootstrap' },
  });
  return { email: user.email, password: generatedPassword!, token };
}

/** The worker's /healthz, /readyz and /metrics (what an orchestrator and Prometheus need), on node:http. */
async function listenOps(c: Container, config: Config): Promise<{ address: string; close(): void }> {
  const server = createServer(
    opsListener(config, {
      readiness: () => c.readiness(),
      metrics: async () => ({
        contentType: c.metrics.registry.contentType,
        text: await c.metrics.registry.metrics(),
      }),
      otherwise: (_req, res) => {
        res.writeHead(404, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        res.end('not found: /healthz, /readyz, /metrics');
      },
    }),
  );
  await new Promise<void>((resolve) => server.listen(config.workerPort, config.host, resolve));
  const port = (server.address() as { port: number }).port;
  return { address: `http://${config.host}:${port}`, close: () => server.close() };
}
