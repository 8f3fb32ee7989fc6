import { Type } from 'typebox';
import { FLOW_DIRECTIONS, MAX_LIMIT, type OnchainService } from '../../modules/onchain/index.ts';
import { NormalizationLog } from '../normalization-header.ts';
import { provenanceHeaders } from '../provenance.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

const Party = Type.Object({
  address: Type.String(),
  exchange: Type.Union([Type.String(), Type.Null()]),
  label: Type.Union([Type.String(), Type.Null()]),
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
    '1h': Totals,
    '24h': Totals,
  }),
  nextCursor: Type.Union([Type.String(), Type.Null()], { description: 'Pass as cursor for older flows' }),
  applied: Type.Object({
    limit: Type.Integer(),
    exchange: Type.Union([Type.String(), Type.Null()]),
    asset: Type.Union([Type.String(), Type.Null()]),
    direction: Type.Union([Type.String(), Type.Null()]),
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
  direction: Type.Optional(Type.Unsafe<string>({ type: 'string', enum: [...FLOW_DIRECTIONS] })),
  minUsd: Type.Optional(Type.Number({ minimum: 0, description: 'Only flows worth at least this many USD' })),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

/** GET /api/onchain/flows — deposits to and withdrawals from labelled exchange wallets, newest first. */
export interface OnchainRouteDeps {
  onchain: Pick<OnchainService, 'listFlows' | 'provenance'>;
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
        const [page, provenance] = await Promise.all([onchain.listFlows(q), onchain.provenance()]);
        for (const [name, value] of provenanceHeaders(provenance)) reply.header(name, value);
        const log = new NormalizationLog();
        if (q.exchange !== undefined && page.applied.exchange)
          log.add('exchange', q.exchange, page.applied.exchange);
        if (q.limit !== undefined) log.add('limit', String(q.limit), String(page.applied.limit));
        if (q.asset !== undefined && page.applied.asset) log.add('asset', q.asset, page.applied.asset);
        log.apply(reply);
        return page;
      },
    );
  };
}
