import { openDatabase, tablesOf } from '../src/adapters/db/connect.ts';
import { prepareDataDir } from '../src/adapters/db/data-dir.ts';
import { migrateToLatest } from '../src/adapters/db/migrate.ts';
import {
  type PredictionsTables,
  createKyselyPredictionRepository,
  createPredictionsService,
} from '../src/modules/predictions/index.ts';
import { manualClock } from '../src/shared/clock.ts';
import { benchMarket } from './predictions-fixture.ts';

const MIN = 60_000;

/**
 * A data folder holding the last `hours` of forecasts (the 1h horizon publishes from its first fit, ≈ 3 h in), as a server that ran that long leaves it: the model
 * runs a minute at a time over a synthetic market up to now and stores (and chains) what it publishes. A
 * fresh server publishes nothing before its first fit, so without this its predictions page would be empty.
 */
export async function seedPredictionRecord(dataDir: string, hours = 30): Promise<void> {
  prepareDataDir(dataDir);
  const db = await openDatabase({ dataDir });
  try {
    await migrateToLatest(db.db);
    const end = Math.floor(Date.now() / MIN) * MIN;
    const start = end - hours * 3_600_000;
    const clock = manualClock(start);
    const service = createPredictionsService({
      market: benchMarket(clock, start),
      repository: createKyselyPredictionRepository(tablesOf<PredictionsTables>(db.db)),
      clock,
      refreshMs: MIN,
    });
    service.warmUp();
    while (clock.now() < end) {
      await service.refresh();
      clock.advance(MIN);
    }
  } finally {
    await db.close();
  }
}
