import { renameSync, rmSync } from 'node:fs';
import { openDatabase } from './connect.ts';
import { migrateToLatest } from './migrate.ts';
import { pgliteTemplateDir } from './pglite-create.ts';

/** Makes the template in `folder` (replacing one there): initdb in its own process, then the migrations. */
export async function createPgliteTemplate(folder = pgliteTemplateDir): Promise<void> {
  const building = `${folder}.building`;
  rmSync(building, { recursive: true, force: true });
  const db = await openDatabase({ dataDir: building });
  try {
    await migrateToLatest(db.db);
  } finally {
    await db.close();
  }
  rmSync(folder, { recursive: true, force: true });
  renameSync(building, folder);
}
