import { Type } from 'typebox';
import type { LabelsService } from '../../modules/labels/index.ts';
import {
  FLOW_DIRECTIONS,
  MAX_LIMIT,
  MAX_NETFLOW_BUCKETS,
  type OnchainService,
} from '../../modules/onchain/index.ts';
import { NormalizationLog } from '../normalization-header.ts';
import { provenanceHeaders } from '../provenance.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { PartyLabelSchema, withPrivateLabels } from './labels.ts';

const Party = Type.Object({
  address: Type.String(),
  exchange: Type.Union([Type.String(), Type.Null()]),
  label: Type.Union([Type.String(), Type.Null()]),
  privateLabel: Type.Optional(PartyLabelSchema),
});

const FlowSchema = Type.Object(
  {
    id: Type.String({ description: 'chain:txHash:logIndex:exchange — the idempotency key' }),
    chain: Type.String(),
    txHash: Type.String(),
    logIndex: Type.Union([Type.Integer(), Type.Null()], { description: 'null for a native transfer' }),
    kind: Type.Union([Type.Literal('native'), Type.Literal('token')]),
    blockNumber: Type.Integer(),
    blockHash: Type.String(),
    time: Type.String({ format: 'date-time' }),
    timestamp: Type.Integer({ description: 'Block time in epoch milliseconds' }),
    exchange: Type.String(),
    direction: Type.Union([Type.Literal('deposit'), Type.Literal('withdrawal'), Type.Literal('internal')]),
    asset: Type.String(),
    tokenAddress: Type.Union([Type.String(), Type.Null()]),
    amount: Type.String({ description: 'Exact decimal amount, never a float' }),
    usdValue: Type.Union([Type.Number(), Type.Null()], {
      description: 'USD at the block time, rounded to cents',
    }),
    from: Party,
    to: Party,
    labelVersion: Type.Union([Type.String(), Type.Null()], {
      description:
        'Version hash of the label set that classified the flow (null for flows stored before versions were kept)',
    }),
  },
  { $id: 'OnchainFlow' },
);

const Totals = Type.Object({
  inflowUsd: Type.Number(),
  outflowUsd: Type.Number(),
  netflowUsd: Type.Number(),
});

const FlowsPageSchema = Type.Object({
  data: Type.Array(FlowSchema),
  summary: Type.Object({
    asOf: Type.String({ format: 'date-time' }),
    exchange: Type.Union([Type.String(), Type.Null()]),
    asset: Type.Union([Type.String(), Type.Null()]),
    chain: Type.Union([Type.String(), Type.Null()]),
    '1h': Totals,
    '24h': Totals,
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for older flows' }),
  applied: Type.Object({
    limit: Type.Integer(),
    exchange: Type.Union([Type.String(), Type.Null()]),
    asset: Type.Union([Type.String(), Type.Null()]),
    direction: Type.Union([Type.String(), Type.Null()]),
    chain: Type.Union([Type.String(), Type.Null()]),
  }),
  labels: Type.Object({ version: Type.String(), addresses: Type.Integer() }),
});

export const OnchainFlowsQuery = Type.Object({
  exchange: Type.Optional(
    Type.String({ maxLength: 64, description: 'binance, coinbase, kraken, okx, … (aliases accepted)' }),
  ),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: `Default 50; above ${MAX_LIMIT} is clamped to ${MAX_LIMIT}` }),
  ),
  asset: Type.Optional(Type.String({ maxLength: 20, description: 'ETH, USDT, USDC, WETH, …' })),
  chain: Type.Optional(
    Type.String({ maxLength: 32, description: 'An indexed chain: ethereum, arbitrum, bsc, …' }),
  ),
  direction: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...FLOW_DIRECTIONS] })),
  minUsd: Type.Optional(Type.Number({ minimum: 0, description: 'Only flows worth at least this many USD' })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

const NetflowPoint = Type.Object({
  time: Type.String({ format: 'date-time', description: 'Bucket start' }),
  timestamp: Type.Integer({ description: 'Bucket start in epoch milliseconds' }),
  inflow: Type.Union([Type.String(), Type.Null()], {
    description: 'Deposits in asset units (exact decimal); null without an asset filter',
  }),
  outflow: Type.Union([Type.String(), Type.Null()], { description: 'Withdrawals in asset units' }),
  netflow: Type.Union([Type.String(), Type.Null()], { description: 'inflow − outflow in asset units' }),
  inflowUsd: Type.Number(),
  outflowUsd: Type.Number(),
  netflowUsd: Type.Number(),
  flows: Type.Integer({ description: 'Deposits and withdrawals in the bucket' }),
  unpriced: Type.Integer({ description: 'Flows without a USD value (left out of the USD sums)' }),
  gap: Type.Boolean({
    description:
      'True when the stored flows do not cover the whole bucket (before the first indexed block, or past the checkpoint: the indexer behind); its sums are partial',
  }),
});

const NetflowSchema = Type.Object({
  exchange: Type.Union([Type.String(), Type.Null()]),
  asset: Type.Union([Type.String(), Type.Null()]),
  chain: Type.Union([Type.String(), Type.Null()]),
  interval: Type.Union([Type.Literal('1h'), Type.Literal('1d')]),
  from: Type.String({ format: 'date-time' }),
  to: Type.String({ format: 'date-time', description: 'End of the last bucket (exclusive)' }),
  data: Type.Array(NetflowPoint),
  coverage: Type.Array(
    Type.Object({
      chain: Type.String(),
      from: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
      through: Type.Union([Type.String({ format: 'date-time' }), Type.Null()]),
    }),
  ),
  labels: Type.Object({ version: Type.String() }),
});

export const NetflowQuery = Type.Object({
  exchange: Type.Optional(Type.String({ maxLength: 64, description: 'Default: every exchange' })),
  asset: Type.Optional(
    Type.String({ maxLength: 20, description: 'Default: every asset (then only USD sums are given)' }),
  ),
  chain: Type.Optional(Type.String({ maxLength: 32, description: 'Default: every indexed chain' })),
  interval: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: ['1h', '1d'], default: '1h' })),
  from: Type.Optional(
    Type.String({
      maxLength: 40,
      description: 'ISO 8601 or epoch ms; default: 7 days (1h) or 90 days (1d) before to',
    }),
  ),
  to: Type.Optional(Type.String({ maxLength: 40, description: 'ISO 8601 or epoch ms; default: now' })),
});

/** GET /api/onchain/flows — deposits to and withdrawals from labelled exchange wallets, newest first. */
export interface OnchainRouteDeps {
  onchain: Pick<OnchainService, 'listFlows' | 'provenance' | 'netflow'>;
  /** The caller's private labels, shown on the parties of the flows they label. */
  labels?: Pick<LabelsService, 'forParties'>;
}

export function onchainRoutes(deps: OnchainRouteDeps): RouteModule {
  const { onchain } = deps;
  return async (app) => {
    app.get(
      '/api/onchain/flows',
      {
        config: { permission: 'onchain:read' },
        schema: {
          operationId: 'listOnchainFlows',
          tags: ['onchain'],
          summary: 'Recent exchange deposits and withdrawals with 1 h / 24 h USD totals',
          querystring: OnchainFlowsQuery,
          response: { 200: FlowsPageSchema, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const q = request.query;
        const page = await onchain.listFlows(q);
        const [provenance, data] = await Promise.all([
          onchain.provenance(page.applied.chain ?? undefined),
          deps.labels ? withPrivateLabels(deps.labels, request.principal!.orgId, page.data) : page.data,
        ]);
        for (const [name, value] of provenanceHeaders(provenance)) reply.header(name, value);
        const log = new NormalizationLog();
        if (q.exchange !== undefined && page.applied.exchange)
          log.add('exchange', q.exchange, page.applied.exchange);
        if (q.limit !== undefined) log.add('limit', String(q.limit), String(page.applied.limit));
        if (q.asset !== undefined && page.applied.asset) log.add('asset', q.asset, page.applied.asset);
        if (q.chain !== undefined && page.applied.chain) log.add('chain', q.chain, page.applied.chain);
        log.apply(reply);
        return { ...page, data };
      },
    );

    app.get(
      '/api/onchain/netflow',
      {
        config: { permission: 'onchain:read' },
        schema: {
          operationId: 'getOnchainNetflow',
          tags: ['onchain'],
          summary: 'Exchange inflow, outflow and netflow per hour or day, from the stored flows',
          description: `At most ${MAX_NETFLOW_BUCKETS} buckets per answer. Buckets the indexer has not covered are marked \`gap\`.`,
          querystring: NetflowQuery,
          response: { 200: NetflowSchema, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const series = await onchain.netflow(request.query);
        const provenance = await onchain.provenance(series.chain ?? undefined);
        for (const [name, value] of provenanceHeaders(provenance)) reply.header(name, value);
        return series;
      },
    );
  };
}
