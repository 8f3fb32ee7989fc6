import type { AlertsTables } from '../../modules/alerts/tables.ts';
import type { EventsTables } from '../../modules/events/tables.ts';
import type { LabelsTables } from '../../modules/labels/tables.ts';
import type { PredictionsTables } from '../../modules/predictions/tables.ts';
import type { PortfolioTables } from '../../modules/portfolio/tables.ts';
import type { UsageTables } from '../../modules/usage/tables.ts';
import type { AccountsTables } from '../../modules/accounts/tables.ts';
import type { MarketTables } from '../../modules/market/tables.ts';
import type { OnchainTables } from '../../modules/onchain/tables.ts';
import type { WebhooksTables } from '../../modules/webhooks/tables.ts';
import type { DerivativesTables } from '../../modules/derivatives/tables.ts';
import type { LeadershipTables } from '../leadership/tables.ts';
import type { OAuthTables } from '../../modules/oauth/tables.ts';

/**
 * The whole relational schema as Kysely sees it: each module declares its own tables and they are
 * joined here. Migrations in `migrations/` are the source of truth for the DDL.
 */
export interface Database
  extends AccountsTables,
    MarketTables,
    OnchainTables,
    PredictionsTables,
    EventsTables,
    PortfolioTables,
    UsageTables,
    AlertsTables,
    WebhooksTables,
    DerivativesTables,
    LeadershipTables,
    LabelsTables,
    OAuthTables {}
