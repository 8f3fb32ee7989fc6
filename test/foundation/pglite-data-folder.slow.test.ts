import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { openDatabase } from '../../src/adapters/db/connect.ts';

/**
 * A data folder on disk for PGlite on its own thread: created by initdb in a process of its own (seconds of
 * CPU), reopened, dumped and loaded. The other thread tests start from the migrated snapshot
 * (pglite-thread.test.ts).
 */
describe('PGlite on a worker thread, with a data folder', () => {
  const dir = mkdtempSync(join(tmpdir(), 'meridian-pglite-thread-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('keeps what was written across a close and a reopen, and dumps a folder PGlite loads', async () => {
    const first = await openDatabase({ dataDir: dir, thread: true });
    // The cluster was created (in a process of its own) and runs with the memory settings of pglite-settings.ts.
    expect(readFileSync(join(dir, 'postgresql.conf'), 'utf8')).toMatch(/^shared_buffers = 16MB/m);
    const settings = await sql<{
      name: string;
      setting: string;
    }>`select name, current_setting(name) as setting
      from unnest(array['shared_buffers', 'maintenance_work_mem']) as name`.execute(first.db);
    expect(settings.rows).toEqual([
      { name: 'shared_buffers', setting: '16MB' },
      { name: 'maintenance_work_mem', setting: '16MB' },
    ]);
    await sql`create table kept (v text)`.execute(first.db);
    await sql`insert into kept values ('across restarts')`.execute(first.db);
    const dump = await first.dump!();
    await first.close();
    await expect(sql`select 1`.execute(first.db)).rejects.toThrow();

    const again = await openDatabase({ dataDir: dir, thread: true });
    expect((await sql`select v from kept`.execute(again.db)).rows).toEqual([{ v: 'across restarts' }]);
    await again.close();

    const loaded = await openDatabase({ loadDataDir: dump, thread: true });
    expect((await sql`select v from kept`.execute(loaded.db)).rows).toEqual([{ v: 'across restarts' }]);
    await loaded.close();
  });
});
