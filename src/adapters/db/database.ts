import type { PredictionsTables } from '../../modules/predictions/tables.ts';
import type { AccountsTables } from '../../modules/accounts/tables.ts';
import type { MarketTables } from '../../modules/market/tables.ts';
import type { OnchainTables } from '../../modules/onchain/tables.ts';
import type { LeadershipTables } from '../leadership/tables.ts';

/**
 * The whole relational schema as Kysely sees it: each module declares its own tables and they are
 * joined here. Migrations in `migrations/` are the source of truth for the DDL.
 */
export interface Database
  extends AccountsTables,
    MarketTables,
    OnchainTables,
    PredictionsTables,
    LeadershipTables {}
