import { type DbHandle, tablesOf } from '../adapters/db/connect.ts';
import type { Config } from '../config/env.ts';
import {
  createKyselyLabelsRepository,
  createLabelsService,
  type LabelsService,
  type LabelsTables,
} from '../modules/labels/index.ts';
import type { Clock } from '../shared/clock.ts';

export interface LabelsModule {
  service: LabelsService;
}

/** Private labels: the service behind /api/labels, capped per account by MERIDIAN_PRIVATE_LABELS_MAX. */
export function buildLabels(config: Config, deps: { db: DbHandle; clock: Clock }): LabelsModule {
  return {
    service: createLabelsService({
      repo: createKyselyLabelsRepository(tablesOf<LabelsTables>(deps.db.db)),
      clock: deps.clock,
      maxPerAccount: config.privateLabelsMax,
    }),
  };
}
