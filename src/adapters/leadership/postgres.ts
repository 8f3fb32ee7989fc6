import { createHash } from 'node:crypto';
import type { Leadership } from '../../shared/leadership.ts';

interface LeaderLog {
  info(obj: object, msg: string): void;
  warn(obj: object, msg: string): void;
}

/**
 * Leadership through PostgreSQL session advisory locks: each job campaigns on its own connection with
 * `pg_try_advisory_lock(key)`. PostgreSQL releases the lock when the holder's connection ends — crash,
 * network loss or shutdown — so a standby acquires it on its next attempt. The holder checks its connection
 * every `intervalMs`; if the check fails it stops the job at once (it may no longer be the leader).
 */
export function postgresLeadership(
  databaseUrl: string,
  options: { intervalMs?: number; log?: LeaderLog } = {},
): Leadership {
  const intervalMs = options.intervalMs ?? 2_000;
  const campaigns = new Set<() => Promise<void>>();

  return {
    leaderOnly(job) {
      // 63-bit key from the job name, stable across processes and versions.
      const key = createHash('sha256').update(`meridian:${job.name}`).digest().readBigInt64BE(0).toString();
      let client: import('pg').Client | undefined;
      let leading = false;
      let timer: NodeJS.Timeout | undefined;
      let stopped = true;
      let busy: Promise<void> = Promise.resolve();

      const dropConnection = async () => {
        const c = client;
        client = undefined;
        await c?.end().catch(() => {});
      };

      const abdicate = async (reason: string) => {
        if (!leading) return;
        leading = false;
        options.log?.warn({ job: job.name, reason }, 'leadership lost; job stopped');
        await job.stop().catch(() => {});
        await dropConnection();
      };

      const attempt = async () => {
        if (stopped) return;
        try {
          if (leading) {
            await client!.query('select 1');
            return;
          }
          if (!client) {
            const { default: pg } = await import('pg');
            // The application name shows operators (pg_stat_activity) which process leads which job.
            client = new pg.Client({
              connectionString: databaseUrl,
              connectionTimeoutMillis: 2_000,
              application_name: `meridian-leader:${job.name}`.slice(0, 63),
            });
            client.on('error', () => {
              busy = busy.then(() => abdicate('connection error'));
            });
            await client.connect();
          }
          const result = await client.query<{ locked: boolean }>(
            'select pg_try_advisory_lock($1::bigint) as locked',
            [key],
          );
          if (result.rows[0]?.locked && !stopped) {
            leading = true;
            options.log?.info({ job: job.name }, 'leadership acquired; job starting');
            await job.start();
          }
        } catch (error) {
          if (leading) await abdicate((error as Error).message);
          else await dropConnection();
        }
      };

      const campaign = async () => {
        stopped = true;
        if (timer) clearInterval(timer);
        await busy;
        if (leading) {
          leading = false;
          await job.stop().catch(() => {});
        }
        await dropConnection(); // ends the session: the lock is released for the standbys
      };

      return {
        name: job.name,
        isLeader: () => leading,
        async start() {
          stopped = false;
          campaigns.add(campaign);
          busy = busy.then(attempt);
          await busy;
          timer = setInterval(() => {
            busy = busy.then(attempt);
          }, intervalMs);
          timer.unref?.();
        },
        async stop() {
          campaigns.delete(campaign);
          await campaign();
        },
      };
    },
    async close() {
      for (const stop of [...campaigns]) await stop();
      campaigns.clear();
    },
  };
}
