import { parse as parseLosslessJson } from 'lossless-json';
import type { AuditLog } from '../../modules/audit/index.ts';
import { actorOf } from '../audit.ts';
import { Type } from 'typebox';
import {
  MAX_IMPORT_ROWS,
  type PortfolioService,
  type RawRow,
  type RowProblem,
  ROW_FIELDS,
  presentImport,
  presentPortfolio,
  presentRow,
} from '../../modules/portfolio/index.ts';
import { AppError } from '../../shared/errors.ts';
import { validationProblems } from '../plugins/errors.ts';
import { sendBytes } from '../reply.ts';
import { ProblemSchema, authProblems } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import {
  ImportCsv,
  ImportEntry,
  ImportHeaders,
  ImportJson,
  ImportProblem,
  ImportQuery,
  ImportResult,
  Portfolio,
  StoredRow,
} from './portfolio.schemas.ts';

const JSON_TYPE = 'application/json; charset=utf-8';

type AjvError = Parameters<typeof validationProblems>[0][number];

/** Schema problems of a JSON import, by row where they concern one; throws for problems outside the rows. */
function rowProblemsOf(errors: AjvError[]): RowProblem[] {
  const problems: RowProblem[] = [];
  const other: Array<{ pointer: string; message: string }> = [];
  for (const p of validationProblems(errors, 'body')) {
    const pointer = p.pointer.replace(/^\/body/, '');
    const match = /^\/rows\/(\d+)(?:\/([^/]+))?/.exec(pointer);
    if (!match) {
      other.push({ pointer: p.pointer, message: p.message });
      continue;
    }
    const field = (ROW_FIELDS as readonly string[]).includes(match[2] ?? '')
      ? (match[2] as RowProblem['field'])
      : undefined;
    problems.push({ row: Number(match[1]) + 1, pointer, ...(field ? { field } : {}), message: p.message });
  }
  if (other.length) {
    throw new AppError('validation_failed', other.map((p) => `${p.pointer} ${p.message}`).join('; '), {
      errors: other,
    });
  }
  return problems;
}

const toRawRow = (value: unknown): RawRow => {
  const row: RawRow = {};
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    for (const field of ROW_FIELDS) {
      const v = (value as Record<string, unknown>)[field];
      if (v !== undefined && v !== null) row[field] = String(v);
    }
  }
  return row;
};

/**
 * POST /api/portfolio/import (JSON or CSV), GET /api/portfolio (holdings), GET /api/portfolio/rows,
 * GET /api/portfolio/imports, DELETE /api/portfolio/rows/:id and DELETE /api/portfolio (reset).
 */
export interface PortfolioRouteDeps {
  portfolio: Pick<PortfolioService, 'deleteRow' | 'holdings' | 'importRows' | 'imports' | 'reset' | 'rows'>;
  priceSource: string;
  audit: AuditLog;
}

export function portfolioRoutes(deps: PortfolioRouteDeps): RouteModule {
  const { portfolio } = deps;
  return async (app) => {
    // JSON numbers are read as their exact digits (lossless-json), never through a float.
    app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) => {
      try {
        done(
          null,
          parseLosslessJson(body as string, undefined, (digits) => digits),
        );
      } catch (error) {
        done(
          new AppError('bad_request', `the body is not valid JSON: ${(error as Error).message}`),
          undefined,
        );
      }
    });
    app.addContentTypeParser(['text/csv', 'application/csv'], { parseAs: 'string' }, (_request, body, done) =>
      done(null, body),
    );

    app.post(
      '/api/portfolio/import',
      {
        config: { permission: 'portfolio:write' },
        attachValidation: true,
        schema: {
          operationId: 'importPortfolio',
          tags: ['portfolio'],
          summary: `Import up to ${MAX_IMPORT_ROWS} portfolio rows (JSON or CSV), all or nothing`,
          querystring: ImportQuery,
          headers: ImportHeaders,
          // One schema per content type (Fastify validates the body by its Content-Type); the handler reads
          // the body as either, so its type is left open.
          body: Type.Unsafe<unknown>({
            content: {
              'application/json': { schema: ImportJson },
              'text/csv': { schema: ImportCsv },
            },
          }),
          response: {
            200: ImportResult,
            201: ImportResult,
            400: ImportProblem,
            409: ProblemSchema,
            413: ProblemSchema,
            415: ProblemSchema,
            422: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const body = request.body as unknown;
        const isCsv = typeof body === 'string';
        const jsonRows =
          !isCsv && body && typeof body === 'object' ? (body as { rows?: unknown }).rows : undefined;
        // More rows than allowed is refused before anything else looks at them.
        if (Array.isArray(jsonRows) && jsonRows.length > MAX_IMPORT_ROWS) {
          throw new AppError(
            'payload_too_large',
            `an import holds at most ${MAX_IMPORT_ROWS} rows; this one has ${jsonRows.length}`,
            { extra: { maxRows: MAX_IMPORT_ROWS } },
          );
        }
        let schemaProblems: RowProblem[] = [];
        const invalid = request.validationError;
        if (invalid) {
          if (request.validationError?.validationContext !== 'body' || isCsv) throw invalid;
          schemaProblems = rowProblemsOf(invalid.validation as AjvError[]);
        }
        const key = request.headers['idempotency-key'];
        const answer = await portfolio.importRows({
          accountId: request.principal!.orgId,
          body: isCsv
            ? { kind: 'csv', text: body }
            : { kind: 'json', rows: (Array.isArray(jsonRows) ? jsonRows : []).map(toRawRow), schemaProblems },
          dryRun: request.query.dryRun ?? false,
          idempotencyKey: typeof key === 'string' ? key : undefined,
        });
        if (key !== undefined) reply.header('idempotent-replayed', String(answer.replayed));
        if (answer.status === 201 && !answer.replayed) {
          const { importId, rows } = JSON.parse(answer.body) as { importId: string; rows: number };
          await deps.audit.record({
            action: 'portfolio.import',
            outcome: 'success',
            ...actorOf(request),
            target: `import:${importId}`,
            detail: { rows, format: isCsv ? 'csv' : 'json' },
          });
        }
        // The answer is stored serialized (an idempotent replay sends the very same bytes).
        return sendBytes(reply.code(answer.status as 200 | 201).type(JSON_TYPE), answer.body);
      },
    );

    app.get(
      '/api/portfolio',
      {
        config: { permission: 'portfolio:read' },
        schema: {
          operationId: 'getPortfolio',
          tags: ['portfolio'],
          summary:
            'Holdings per asset at the merged market price: value, cost, unrealized P&L, allocation, 24 h change',
          response: { 200: Portfolio, ...authProblems },
        },
      },
      async (request) => ({
        ...presentPortfolio(await portfolio.holdings(request.principal!.orgId)),
        priceSource: deps.priceSource,
      }),
    );

    app.get(
      '/api/portfolio/rows',
      {
        config: { permission: 'portfolio:read' },
        schema: {
          operationId: 'listPortfolioRows',
          tags: ['portfolio'],
          summary: 'Every stored row, exactly as imported (decimals as strings): an export',
          response: { 200: Type.Object({ data: Type.Array(StoredRow) }), ...authProblems },
        },
      },
      async (request) => ({ data: (await portfolio.rows(request.principal!.orgId)).map(presentRow) }),
    );

    app.get(
      '/api/portfolio/imports',
      {
        config: { permission: 'portfolio:read' },
        schema: {
          operationId: 'listPortfolioImports',
          tags: ['portfolio'],
          summary: 'Import history, newest first',
          querystring: Type.Object({
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 200, default: 50 })),
          }),
          response: {
            200: Type.Object({ data: Type.Array(ImportEntry) }),
            400: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request) => ({
        data: (await portfolio.imports(request.principal!.orgId, request.query.limit ?? 50)).map(
          presentImport,
        ),
      }),
    );

    app.delete(
      '/api/portfolio/rows/:id',
      {
        config: { permission: 'portfolio:write' },
        schema: {
          operationId: 'deletePortfolioRow',
          tags: ['portfolio'],
          summary: 'Delete one row',
          params: Type.Object({ id: Type.String({ maxLength: 64 }) }),
          response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        await portfolio.deleteRow(request.principal!.orgId, request.params.id);
        await deps.audit.record({
          action: 'portfolio.row_delete',
          outcome: 'success',
          ...actorOf(request),
          target: `portfolio_row:${request.params.id}`,
        });
        return reply.code(204).send(null);
      },
    );

    app.delete(
      '/api/portfolio',
      {
        config: { permission: 'portfolio:write' },
        schema: {
          operationId: 'deletePortfolio',
          tags: ['portfolio'],
          summary: 'Reset: delete every row of the account (the import history is kept)',
          response: { 200: Type.Object({ deleted: Type.Integer() }), ...authProblems },
        },
      },
      async (request) => {
        const deleted = await portfolio.reset(request.principal!.orgId);
        await deps.audit.record({
          action: 'portfolio.delete',
          outcome: 'success',
          ...actorOf(request),
          target: `user:${request.principal!.userId}`,
          detail: { rows: deleted },
        });
        return { deleted };
      },
    );
  };
}
