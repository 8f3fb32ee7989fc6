import type { TSchema } from 'typebox';
import { BacktestQuery } from '../routes/alerts-backtest.schemas.ts';
import { CreateRule, ListQuery, RuleId } from '../routes/alerts.schemas.ts';
import { HistoryQuery, MarketDataQuery } from '../routes/market.schemas.ts';
import { DerivativesHistoryQuery, DerivativesQuery } from '../routes/derivatives.schemas.ts';
import { NetflowQuery, OnchainFlowsQuery } from '../routes/onchain.ts';
import { LedgerQuerySchema, PredictionsQuerySchema } from '../routes/predictions.schemas.ts';
import { ProbabilityQuerySchema } from '../routes/predictions-levels.schemas.ts';
import { OutlookQuerySchema } from '../routes/predictions-outlook.schemas.ts';
import type { RestRequest } from './caller.ts';
import { summaries } from './summaries.ts';

/**
 * The MCP tools: each one is a REST route, its input schema the route's own TypeBox definition (query, body or
 * path parameters), its answer the route's answer. Adding a tool is adding an entry here.
 */
export interface ToolDefinition {
  name: string;
  title: string;
  description: string;
  /** JSON Schema of the arguments (an object schema), taken from the route's definitions. */
  inputSchema: Record<string, unknown>;
  /** Where the arguments go: the query string, the JSON body, or a path parameter plus a fixed body. */
  request(args: Record<string, unknown>): RestRequest;
  /** A compact text for the model; the full answer goes in structuredContent. */
  summarize(body: unknown): string;
  readOnly: boolean;
}

/**
 * The schema as plain JSON, an object at the top. `$id`s (names for the OpenAPI document) are left out: an
 * agent's validator would otherwise register them as separate documents.
 */
export function jsonSchemaOf(schema: TSchema): Record<string, unknown> {
  const plain = JSON.parse(
    JSON.stringify(schema, (key, value) => (key === '$id' ? undefined : value)),
  ) as Record<string, unknown>;
  return { ...plain, type: 'object' };
}

const NO_ARGUMENTS = { type: 'object', properties: {}, additionalProperties: false };

/** Arguments as query parameters (booleans and numbers as their text, as a URL carries them). */
export function queryOf(args: Record<string, unknown>): Record<string, string> {
  const query: Record<string, string> = {};
  for (const [name, value] of Object.entries(args))
    if (value !== undefined && value !== null)
      query[name] = typeof value === 'object' ? JSON.stringify(value) : String(value);
  return query;
}

const get =
  (path: string, defaults: Record<string, unknown> = {}) =>
  (args: Record<string, unknown>): RestRequest => ({
    method: 'GET',
    path,
    query: queryOf({ ...defaults, ...args }),
  });

export const tools: readonly ToolDefinition[] = [
  {
    name: 'get_market_data',
    title: 'Market data',
    description:
      'Live merged price, 24 h change and volume, spread, depth, slippage, funding and per-venue detail for ' +
      'supported symbols (GET /api/market-data). Omit `symbols` for every supported symbol.',
    inputSchema: jsonSchemaOf(MarketDataQuery),
    request: get('/api/market-data'),
    summarize: summaries.marketData,
    readOnly: true,
  },
  {
    name: 'get_market_history',
    title: 'Market history',
    description:
      'OHLCV candles of one symbol (GET /api/market-history): interval 1m…1d, from/to, newest last; page with cursor.',
    inputSchema: jsonSchemaOf(HistoryQuery),
    request: get('/api/market-history'),
    summarize: summaries.history,
    readOnly: true,
  },
  {
    name: 'list_onchain_flows',
    title: 'On-chain exchange flows',
    description:
      'Recent deposits to and withdrawals from labelled exchange wallets with 1 h / 24 h USD totals (GET /api/onchain/flows).',
    inputSchema: jsonSchemaOf(OnchainFlowsQuery),
    request: get('/api/onchain/flows'),
    summarize: summaries.flows,
    readOnly: true,
  },
  {
    name: 'get_onchain_netflow',
    title: 'Exchange netflow series',
    description:
      'Exchange inflow, outflow and netflow per hour or day (GET /api/onchain/netflow): filter by exchange, asset ' +
      'and chain; buckets the indexer has not covered are marked gap.',
    inputSchema: jsonSchemaOf(NetflowQuery),
    request: get('/api/onchain/netflow'),
    summarize: summaries.netflow,
    readOnly: true,
  },
  {
    name: 'get_derivatives',
    title: 'Perpetual-futures data',
    description:
      'Funding (now, next, annualized), open interest with its 24 h change, basis and liquidations over 1 h / 24 h ' +
      'per symbol, with the per-venue breakdown (GET /api/derivatives). A metric a source does not publish is null, never 0.',
    inputSchema: jsonSchemaOf(DerivativesQuery),
    request: get('/api/derivatives'),
    summarize: summaries.derivatives,
    readOnly: true,
  },
  {
    name: 'get_derivatives_history',
    title: 'Derivatives history',
    description:
      'One derivatives metric of one symbol over time (GET /api/derivatives/history): funding, open_interest, basis ' +
      'or liquidations, interval, from/to, cursor.',
    inputSchema: jsonSchemaOf(DerivativesHistoryQuery),
    request: get('/api/derivatives/history'),
    summarize: summaries.generic,
    readOnly: true,
  },
  {
    name: 'get_forecast',
    title: 'Price forecast',
    description:
      'Price forecasts of one symbol at a horizon (GET /api/predictions): median forecast, baseline, expected ' +
      'move, calibrated confidence, factors and the p05…p95 quantiles. Defaults here: limit 1 (the newest ' +
      'forecast) and include=quantiles; the 80 % interval is p10…p90 and is stated in the text answer.',
    inputSchema: jsonSchemaOf(PredictionsQuerySchema),
    request: get('/api/predictions', { limit: 1, include: 'quantiles' }),
    summarize: summaries.forecast,
    readOnly: true,
  },
  {
    name: 'get_level_probabilities',
    title: 'Probability of price levels',
    description:
      'For up to 20 price levels of one symbol at a horizon (GET /api/predictions/probability; levels is a ' +
      'comma list): the calibrated probability that the price ends above each level at the horizon and the ' +
      'probability that it touches it before, from the newest forecast, named with its time.',
    inputSchema: jsonSchemaOf(ProbabilityQuerySchema),
    request: get('/api/predictions/probability'),
    summarize: summaries.levelProbabilities,
    readOnly: true,
  },
  {
    name: 'get_outlook',
    title: 'AI outlook',
    description:
      'Bias (bullish/bearish/neutral), score and confidence per horizon with the drivers behind it, for one ' +
      'symbol or market-wide (GET /api/predictions/ai-outlook).',
    inputSchema: jsonSchemaOf(OutlookQuerySchema),
    request: get('/api/predictions/ai-outlook'),
    summarize: summaries.outlook,
    readOnly: true,
  },
  {
    name: 'get_forecast_performance',
    title: 'Forecast track record',
    description:
      'Scored track record of the forecasts: hit rate, calibration, interval coverage (GET /api/predictions/performance).',
    inputSchema: NO_ARGUMENTS,
    request: get('/api/predictions/performance'),
    summarize: summaries.generic,
    readOnly: true,
  },
  {
    name: 'list_forecast_ledger',
    title: 'Forecast ledger',
    description:
      'The hash-chained record of every published forecast, oldest first (GET /api/predictions/ledger): each ' +
      'entry commits to the datapoint as published before its outcome existed; page with nextCursor. Verify a ' +
      'download with `meridian predictions verify --file`.',
    inputSchema: jsonSchemaOf(LedgerQuerySchema),
    request: get('/api/predictions/ledger', { limit: 20 }),
    summarize: summaries.generic,
    readOnly: true,
  },
  {
    name: 'list_alert_rules',
    title: 'Alert rules',
    description: "The caller's alert rules, newest first (GET /api/alerts); filter by state or type.",
    inputSchema: jsonSchemaOf(ListQuery),
    request: get('/api/alerts'),
    summarize: summaries.rules,
    readOnly: true,
  },
  {
    name: 'create_alert_rule',
    title: 'Create an alert rule',
    description:
      'Creates an alert rule (POST /api/alerts): price, volume, address_flow, or on perpetual futures funding ' +
      '(annualized %), open_interest (change % over a window) or liquidations (USD over a window), or probability ' +
      '(the forecast probability that a price level is ended above or touched at a horizon); the arguments are ' +
      'the request body. Needs the alerts:write permission.',
    inputSchema: jsonSchemaOf(CreateRule),
    request: (args) => ({ method: 'POST', path: '/api/alerts', body: args }),
    summarize: summaries.rule,
    readOnly: false,
  },
  {
    name: 'backtest_alert_rule',
    title: 'Backtest an alert rule',
    description:
      'Every time a rule would have fired over a past window, replayed from stored candles or flows, not saved ' +
      '(POST /api/alerts/backtest): `rule` is the body of create_alert_rule, `days` (default 7) or `from`/`to` the window.',
    inputSchema: {
      type: 'object',
      properties: { rule: jsonSchemaOf(CreateRule), ...(jsonSchemaOf(BacktestQuery).properties as object) },
      required: ['rule'],
      additionalProperties: false,
    },
    request: ({ rule, ...window }) => ({
      method: 'POST',
      path: '/api/alerts/backtest',
      query: queryOf(window),
      body: rule,
    }),
    summarize: summaries.backtest,
    readOnly: true,
  },
  {
    name: 'pause_alert_rule',
    title: 'Pause an alert rule',
    description:
      'Pauses an alert rule: it is no longer evaluated until resumed (PATCH /api/alerts/{id} with state=paused).',
    inputSchema: { ...jsonSchemaOf(RuleId), required: ['id'], additionalProperties: false },
    request: (args) => ({
      method: 'PATCH',
      path: `/api/alerts/${encodeURIComponent(String(args.id ?? ''))}`,
      body: { state: 'paused' },
    }),
    summarize: summaries.rule,
    readOnly: false,
  },
  {
    name: 'get_portfolio',
    title: 'Portfolio holdings',
    description:
      'Holdings per asset at the merged market price: value, cost, unrealized P&L, allocation, 24 h change (GET /api/portfolio).',
    inputSchema: NO_ARGUMENTS,
    request: get('/api/portfolio'),
    summarize: summaries.portfolio,
    readOnly: true,
  },
  {
    name: 'get_analytics',
    title: 'Account analytics',
    description: 'API usage, alert and portfolio analytics of the account (GET /api/dashboard/analytics).',
    inputSchema: NO_ARGUMENTS,
    request: get('/api/dashboard/analytics'),
    summarize: summaries.generic,
    readOnly: true,
  },
];

/**
 * Argument names the tool does not take. Query schemas leave unknown keys to the route (which ignores them);
 * a misspelt argument (`horizn`) must not silently fall back to a default, so the tool refuses it.
 */
export function unknownArguments(tool: ToolDefinition, args: Record<string, unknown>): string[] {
  const properties = tool.inputSchema.properties as Record<string, unknown> | undefined;
  // Body tools (oneOf by type) are checked by the route's own schema, which forbids unknown properties.
  if (tool.inputSchema.oneOf !== undefined || properties === undefined) return [];
  return Object.keys(args).filter((name) => !(name in properties));
}
