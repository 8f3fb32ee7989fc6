import { basename } from 'node:path';
import type { AuditLog } from '../../modules/audit/index.ts';
import { actorOf } from '../audit.ts';
import { Type } from 'typebox';
import { KNOWN_EXCHANGES } from '../../modules/identifiers/index.ts';
import {
  DEFAULT_PAGE,
  LABEL_KINDS,
  type LabelsService,
  MAX_NAME,
  MAX_PAGE,
  partyKey,
  presentPartyLabel,
} from '../../modules/labels/index.ts';
import type { AddressBook, FlowView } from '../../modules/onchain/index.ts';
import { validationError } from '../../shared/errors.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';

const Kind = Type.Unsafe<(typeof LABEL_KINDS)[number]>({
  type: 'string',
  enum: [...LABEL_KINDS],
  description: 'exchange: an exchange wallet; fund: a fund’s wallet; wallet: a wallet the account watches',
});

const LabelBody = Type.Object(
  {
    kind: Kind,
    chain: Type.String({
      pattern: '^[A-Za-z0-9][A-Za-z0-9-]{0,31}$',
      description: 'Chain name as the flows show it: ethereum, bsc, polygon, arbitrum, …',
    }),
    address: Type.String({ pattern: '^0x[0-9a-fA-F]{40}$', description: 'A 0x address (any case)' }),
    name: Type.String({ minLength: 1, maxLength: MAX_NAME, description: 'Shown in the account’s views' }),
  },
  { additionalProperties: false },
);

const LabelSchema = Type.Object(
  {
    id: Type.String(),
    kind: Kind,
    chain: Type.String(),
    address: Type.String({ description: 'Lower case' }),
    name: Type.String(),
    createdAt: Type.String({ format: 'date-time' }),
    updatedAt: Type.String({ format: 'date-time' }),
  },
  { $id: 'PrivateLabel' },
);

const ListQuery = Type.Object({
  chain: Type.Optional(Type.String({ maxLength: 32 })),
  kind: Type.Optional(Kind),
  limit: Type.Optional(
    Type.Integer({ minimum: 1, description: `Default ${DEFAULT_PAGE}; above ${MAX_PAGE} is clamped` }),
  ),
  cursor: Type.Optional(Type.String({ maxLength: 200 })),
});

/** A flow party's private label, as the flows view shows it to the account that made it. */
export const PartyLabelSchema = Type.Union(
  [Type.Object({ id: Type.String(), kind: Kind, name: Type.String() }), Type.Null()],
  { description: "The caller's own label for this address (POST /api/labels); no one else sees it" },
);

/** The flows with the caller's private label on each party it labelled (null elsewhere). */
export async function withPrivateLabels(
  labels: Pick<LabelsService, 'forParties'>,
  accountId: string,
  flows: FlowView[],
) {
  const parties = flows.flatMap((f) => [
    { chain: f.chain, address: f.from.address },
    { chain: f.chain, address: f.to.address },
  ]);
  const mine = await labels.forParties(accountId, parties);
  const labelOf = (chain: string, address: string) => {
    const label = mine.get(partyKey(chain, address));
    return label ? presentPartyLabel(label) : null;
  };
  return flows.map((f) => ({
    ...f,
    from: { ...f.from, privateLabel: labelOf(f.chain, f.from.address) },
    to: { ...f.to, privateLabel: labelOf(f.chain, f.to.address) },
  }));
}

export type LabelTargets = Pick<LabelsService, 'get'>;

/**
 * An address_flow condition naming a private label (`label`) gets that label's address, so the rule watches
 * it like any address; a label id that is not the caller's own is a 400 naming `condition/label`.
 */
export async function targetLabel(
  labels: LabelTargets | undefined,
  accountId: string,
  condition: unknown,
): Promise<void> {
  if (!condition || typeof condition !== 'object' || !('label' in condition)) return;
  const c = condition as { label?: unknown; address?: string; exchange?: string };
  if (typeof c.label !== 'string') return;
  const problems = [];
  if (c.address !== undefined || c.exchange !== undefined)
    problems.push({ pointer: '/body/condition/label', message: 'give one of exchange, address or label' });
  const label = labels ? await labels.get(accountId, c.label) : undefined;
  if (!label)
    problems.push({
      pointer: '/body/condition/label',
      message: 'is not one of your labels (GET /api/labels)',
    });
  if (problems.length || !label) throw validationError(problems);
  c.address = label.address;
}

const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) });

const ExchangesSchema = Type.Object({
  data: Type.Array(
    Type.Object({
      exchange: Type.String({ description: 'Canonical name (okex → okx, huobi → htx)' }),
      known: Type.Boolean({
        description: 'One of the exchanges the service knows by name (also a market venue)',
      }),
      addresses: Type.Integer(),
      chains: Type.Array(Type.Object({ chain: Type.String(), addresses: Type.Integer() })),
    }),
  ),
  chains: Type.Array(
    Type.Object({ chain: Type.String(), addresses: Type.Integer(), exchanges: Type.Integer() }),
  ),
  labels: Type.Object({
    version: Type.String({ description: 'Content hash of the merged labels (flows carry it)' }),
    addresses: Type.Integer(),
    sources: Type.Array(
      Type.Object({
        file: Type.String({ description: 'File name, in the order applied (later files override)' }),
        version: Type.String({
          description: 'Declared version, <commit>@<date> of its SOURCE file, or a hash',
        }),
        labels: Type.Integer(),
        ignored: Type.Integer({ description: 'Entries that are not exchange wallets (explorer exports)' }),
        problems: Type.Integer({ description: 'Rows not used (logged at start with file and line)' }),
      }),
    ),
  }),
});

/**
 * GET /api/onchain/exchanges (the public label set's coverage) and an account's private labels:
 * POST /api/labels (add or replace), GET /api/labels (paged), DELETE /api/labels/:id.
 */
export interface LabelsRouteDeps {
  audit: AuditLog;
  labels: Pick<LabelsService, 'list' | 'remove' | 'save'>;
  book: Pick<AddressBook, 'coverage' | 'size' | 'sources' | 'version'>;
}

export function labelsRoutes(deps: LabelsRouteDeps): RouteModule {
  const { labels, book } = deps;
  const known = new Set<string>(KNOWN_EXCHANGES);
  return async (app) => {
    app.addSchema(LabelSchema);

    app.get(
      '/api/onchain/exchanges',
      {
        config: { permission: 'onchain:read' },
        schema: {
          operationId: 'listOnchainExchanges',
          tags: ['onchain'],
          summary: 'Exchanges and chains the address book covers, with address counts and label sources',
          response: { 200: ExchangesSchema, ...authProblems },
        },
      },
      async () => {
        const coverage = book.coverage();
        return {
          data: coverage.exchanges.map((e) => ({ ...e, known: known.has(e.exchange) })),
          chains: coverage.chains,
          labels: {
            version: book.version,
            addresses: book.size,
            sources: book.sources.map((s) => ({
              file: basename(s.source),
              version: s.version,
              labels: s.labels,
              ignored: s.ignored,
              problems: s.problems,
            })),
          },
        };
      },
    );

    app.post(
      '/api/labels',
      {
        config: { permission: 'onchain:write' },
        schema: {
          operationId: 'saveLabel',
          tags: ['labels'],
          summary: 'Label an address for this account only (201 new; 200 replaced its label on that chain)',
          body: LabelBody,
          response: {
            200: LabelSchema,
            201: LabelSchema,
            400: ProblemSchema,
            409: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const { label, created } = await labels.save(request.principal!.orgId, request.body);
        reply.code(created ? 201 : 200);
        return label;
      },
    );

    app.get(
      '/api/labels',
      {
        config: { permission: 'onchain:read' },
        schema: {
          operationId: 'listLabels',
          tags: ['labels'],
          summary: "The account's private labels, newest first",
          querystring: ListQuery,
          response: {
            200: Type.Object({
              data: Type.Array(LabelSchema),
              nextCursor: Type.Union([Type.String(), Type.Null()], {
                description: 'Pass as cursor for older labels',
              }),
            }),
            400: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request) => labels.list(request.principal!.orgId, request.query),
    );

    app.delete(
      '/api/labels/:id',
      {
        config: { permission: 'onchain:write' },
        schema: {
          operationId: 'deleteLabel',
          tags: ['labels'],
          summary: 'Delete a private label (alert rules made on it keep watching its address)',
          params: IdParams,
          response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        await labels.remove(request.principal!.orgId, request.params.id);
        await deps.audit.record({
          action: 'label.delete',
          outcome: 'success',
          ...actorOf(request),
          target: `label:${request.params.id}`,
        });
        reply.code(204);
        return null;
      },
    );
  };
}
