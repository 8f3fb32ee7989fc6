import type { Migration } from 'kysely';
import * as accounts from './0001_accounts.ts';
import * as market from './0002_market.ts';
import * as onchain from './0003_onchain.ts';
import * as predictions from './0004_predictions.ts';
import * as events from './0005_events.ts';
import * as portfolio from './0006_portfolio.ts';
import * as alerts from './0007_alerts.ts';
import * as leadership from './0008_leadership.ts';
import * as webhooks from './0009_webhooks.ts';
import * as dataSource from './0011_data_source.ts';
import * as predictionBackfill from './0012_prediction_backfill.ts';
import * as onchainChains from './0013_onchain_chains.ts';
import * as privateLabels from './0014_private_labels.ts';
import * as derivatives from './0015_derivatives.ts';
import * as alertChannels from './0016_alert_channels.ts';
import * as usageClients from './0018_usage_clients.ts';
import * as forecastLedger from './0019_forecast_ledger.ts';
import * as auditLog from './0020_audit_log.ts';
import * as twoFactor from './0021_two_factor.ts';
import * as oauth from './0022_oauth.ts';
import * as userIdentities from './0023_user_identities.ts';
import * as predictionDirectionEvidence from './0026_prediction_direction_evidence.ts';
import * as netflowRollup from './0027_netflow_rollup.ts';
import * as organizations from './0028_organizations.ts';
import * as usageSeconds from './0030_usage_seconds.ts';
import * as predictionReferenceScores from './0031_prediction_reference_scores.ts';
import * as predictionScoredIndex from './0032_prediction_scored_index.ts';

/**
 * Every migration, keyed by a name that sorts in the order they must run. Each module adds its own file;
 * a migration, once landed, is never edited — add a new one.
 */
export const migrations: Record<string, Migration> = {
  '0001_accounts': accounts,
  '0002_market': market,
  '0003_onchain': onchain,
  '0004_predictions': predictions,
  '0005_events': events,
  '0006_portfolio': portfolio,
  '0007_alerts': alerts,
  '0008_leadership': leadership,
  '0009_webhooks': webhooks,
  '0011_data_source': dataSource,
  '0012_prediction_backfill': predictionBackfill,
  '0013_onchain_chains': onchainChains,
  '0014_private_labels': privateLabels,
  '0015_derivatives': derivatives,
  '0016_alert_channels': alertChannels,
  '0018_usage_clients': usageClients,
  '0019_forecast_ledger': forecastLedger,
  '0020_audit_log': auditLog,
  '0021_two_factor': twoFactor,
  '0022_oauth': oauth,
  '0023_user_identities': userIdentities,
  '0026_prediction_direction_evidence': predictionDirectionEvidence,
  '0027_netflow_rollup': netflowRollup,
  '0028_organizations': organizations,
  '0030_usage_seconds': usageSeconds,
  '0031_prediction_reference_scores': predictionReferenceScores,
  '0032_prediction_scored_index': predictionScoredIndex,
};
