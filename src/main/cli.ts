import { parseArgs } from 'node:util';
import { type Config, ConfigError, configMarkdownTable, loadConfig } from '../config/env.ts';
import { operatorUsage, runOperatorCommand } from './operator-commands.ts';
import { sendAdminCommand } from './admin-socket.ts';
import { DataDirBusyError, acquireDataDirLock, lockHolder, socketPath } from './data-dir-lock.ts';

const usage = `Usage: meridian <command>

  serve [--role all|api|worker] [--reset-derived]   run the service (default role: MERIDIAN_ROLE or all)
  migrate                          apply pending database migrations
  backtest --candles FILE …        walk-forward backtest of the production models (see docs/forecasting.md)
  config --markdown                print the environment variable table
  onchain verify --chain NAME --from BLOCK --to BLOCK [--json]
                                   re-read a block range from the node and compare with the stored flows
  predictions verify [--file LEDGER.jsonl] [--head SEQ:HASH] [--json]
                                   re-check the forecast ledger's hash chain and outcomes (storage or export)
  mcp [--url URL]                  MCP server on stdin/stdout for a local agent, calling the server at URL
                                   (default MERIDIAN_URL or http://localhost:8080) with MERIDIAN_TOKEN
${operatorUsage}

Configuration comes from environment variables (see README). With embedded storage and the server running,
account commands are handed to the running server; with PostgreSQL they run directly.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  if (!command || command === '--help' || command === 'help') {
    process.stdout.write(`${usage}\n`);
    return command ? 0 : 2;
  }
  if (command === 'config') {
    process.stdout.write(`${configMarkdownTable()}\n`);
    return 0;
  }
  if (command === 'backtest') {
    const { runBacktestCommand } = await import('./backtest-command.ts');
    return runBacktestCommand(rest);
  }
  if (command === 'mcp') return runMcpCommand(rest);
  const config = loadConfig();
  if (command === 'serve') {
    const { values } = parseArgs({
      args: rest,
      options: { role: { type: 'string' }, 'reset-derived': { type: 'boolean' } },
    });
    const role = values.role ?? config.role;
    if (!['all', 'api', 'worker'].includes(role)) throw new UsageError('--role must be all, api or worker');
    // Imported here: serving loads every module, which one-shot commands (users, tokens) need not wait for.
    const { serve, splitRoleProblem } = await import('./serve.ts');
    const split = splitRoleProblem(config, role);
    if (split) throw new UsageError(split);
    const running = await serve(
      values['reset-derived'] ? { ...config, resetDerived: true } : config,
      role as 'all' | 'api' | 'worker',
    );
    for (const signal of ['SIGINT', 'SIGTERM'] as const) {
      process.once(signal, () => {
        // Drain HTTP, close sockets with 1001, flush writes; an orchestrator kills after ~10 s anyway, so a
        // shutdown that hangs ends here first with a non-zero status instead of being killed mid-write.
        const deadline = setTimeout(() => process.exit(1), SHUTDOWN_DEADLINE_MS);
        deadline.unref();
        running.stop(signal).then(() => process.exit(0));
      });
    }
    return -1; // keep running
  }
  if (command === 'migrate')
    return withStorage(config, async () => {
      const [{ openDatabase }, { migrateToLatest }] = await Promise.all([
        import('../adapters/db/connect.ts'),
        import('../adapters/db/migrate.ts'),
      ]);
      const db = await openDatabase({ databaseUrl: config.databaseUrl, dataDir: config.dataDir });
      try {
        const applied = await migrateToLatest(db.db);
        process.stdout.write(applied.length ? `applied ${applied.join(', ')}\n` : 'database is up to date\n');
      } finally {
        await db.close();
      }
      return 0;
    });
  if (command === 'users' || command === 'tokens' || command === 'orgs' || command === 'oauth')
    return runAccountCommand(config, argv);
  if (command === 'onchain') {
    const { runOnchainCommand } = await import('./onchain-command.ts');
    return withStorage(config, async () => print(await runOnchainCommand(config, rest)));
  }
  if (command === 'predictions') {
    const { readsStorage, runPredictionsCommand } = await import('./predictions-command.ts');
    const run = async () => print(await runPredictionsCommand(config, rest));
    return readsStorage(rest) ? withStorage(config, run) : run();
  }
  throw new UsageError(`unknown command "${command}"`);
}

/** `meridian mcp`: a client of a running server (its own settings are MERIDIAN_URL and MERIDIAN_TOKEN). */
async function runMcpCommand(args: string[]): Promise<number> {
  const { values } = parseArgs({ args, options: { url: { type: 'string' } } });
  const token = process.env.MERIDIAN_TOKEN;
  if (!token) throw new UsageError('mcp needs an API token in MERIDIAN_TOKEN (create one in the console)');
  const baseUrl = values.url ?? process.env.MERIDIAN_URL ?? 'http://localhost:8080';
  const { runStdioMcp } = await import('../http/mcp/stdio.ts');
  await runStdioMcp({ baseUrl, token });
  return 0;
}

/** Runs an account command here, or hands it to the running server that owns the embedded data folder. */
async function runAccountCommand(config: Config, argv: string[]): Promise<number> {
  if (config.storage === 'pglite' && lockHolder(config.dataDir)) {
    const result = await sendAdminCommand(socketPath(config.dataDir), argv).catch((error: Error) => {
      throw new Error(
        `the server using ${config.dataDir} is running but did not take the command (${error.message}); ` +
          'stop it (Ctrl-C) and run the command again',
      );
    });
    return print(result);
  }
  return withStorage(config, async () => {
    const { buildOperatorContext } = await import('../app/operator.ts');
    const context = await buildOperatorContext(config);
    try {
      return print(await runOperatorCommand(context, argv));
    } finally {
      await context.close();
    }
  });
}

/** With embedded storage, holds the data folder's lock while the command runs. */
async function withStorage(config: Config, work: () => Promise<number>): Promise<number> {
  if (config.storage !== 'pglite') return work();
  const lock = acquireDataDirLock(config.dataDir, 'cli');
  try {
    return await work();
  } finally {
    lock.release();
  }
}

function print(result: { code: number; out: string[]; err: string[] }): number {
  for (const line of result.err) process.stderr.write(`${line}\n`);
  for (const line of result.out) process.stdout.write(`${line}\n`);
  return result.code;
}

const SHUTDOWN_DEADLINE_MS = 9_000;

class UsageError extends Error {}

main(process.argv.slice(2)).then(
  (code) => {
    if (code >= 0) process.exit(code);
  },
  (error: unknown) => {
    if (error instanceof ConfigError) process.stderr.write(`meridian: ${error.message}\n`);
    else if (error instanceof UsageError) process.stderr.write(`meridian: ${error.message}\n\n${usage}\n`);
    else if (error instanceof DataDirBusyError)
      process.stderr.write(
        `meridian: ${error.message}.\nStop that process first, or run account commands (users/tokens) — they are handed to it.\n`,
      );
    else process.stderr.write(`meridian: ${(error as Error).message ?? String(error)}\n`);
    process.exit(error instanceof UsageError ? 2 : 1);
  },
);
