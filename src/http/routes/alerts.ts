import type { FastifyRequest } from 'fastify';
import type { AuditLog } from '../../modules/audit/index.ts';
import { actorOf } from '../audit.ts';
import { type Static, Type } from 'typebox';
import type { AlertsService, RuleType } from '../../modules/alerts/index.ts';
import { isRecord } from '../../shared/bus.ts';
import { AppError, type ProblemDetail, validationError } from '../../shared/errors.ts';
import { NormalizationLog } from '../normalization-header.ts';
import { validationProblems } from '../plugins/errors.ts';
import { authProblems, ProblemSchema } from '../schemas.ts';
import type { RouteModule } from '../types.ts';
import { type LabelTargets, targetLabel } from './labels.ts';
import { Backtest, BacktestQuery } from './alerts-backtest.schemas.ts';
import { AlertCappedEvent, AlertTriggeredEvent, OnchainFlowEvent } from './alerts-events.schemas.ts';
import {
  CreateRule,
  ListQuery,
  PatchRule,
  Rule,
  RuleId,
  RulePage,
  TestFired,
  TypedCondition,
} from './alerts.schemas.ts';

type AjvErrors = Parameters<typeof validationProblems>[0];

/** The body's schema problems (attached by `attachValidation`), minus those under `skipPath`. */
function bodyProblems(request: FastifyRequest, skipPath?: string): ProblemDetail[] {
  const errors: AjvErrors = request.validationError?.validation ?? [];
  const kept = skipPath
    ? errors.filter((e) => e.instancePath !== skipPath && !e.instancePath.startsWith(`${skipPath}/`))
    : errors;
  return validationProblems(kept, 'body');
}

/**
 * Answers 400 with the schema's problems and those of the fields the service can check on its own (symbol,
 * exchange, expiry), so that one answer lists every problem.
 */
function rejectBody(alerts: AlertsRouteDeps['alerts'], body: unknown, problems: ProblemDetail[]): never {
  const reported = new Set(problems.map((p) => p.pointer));
  throw validationError([...problems, ...alerts.fieldProblems(isRecord(body) ? body : {}, reported)]);
}

/** An edited condition checked against the shape of the edited rule's type. */
function typedCondition(request: FastifyRequest, type: RuleType, condition: unknown) {
  const validate = request.compileValidationSchema(TypedCondition);
  const candidate = { type, condition };
  const accepted = (value: unknown): value is Static<typeof TypedCondition> => validate(value);
  if (accepted(candidate)) return { condition: candidate, problems: [] };
  return { condition: undefined, problems: validationProblems(validate.errors ?? [], 'body') };
}

const noteNormalized = (
  reply: { header(n: string, v: string): unknown },
  view: { normalized: Array<{ field: string; requested: string; used: string }> },
) => {
  const log = new NormalizationLog();
  for (const n of view.normalized) log.add(n.field, n.requested, n.used);
  log.apply(reply);
};

/** Alert rules: create, list, read, edit (pause/resume), delete, and a test firing. */
export interface AlertsRouteDeps {
  audit: AuditLog;
  alerts: Pick<
    AlertsService,
    'backtest' | 'create' | 'fieldProblems' | 'get' | 'list' | 'remove' | 'test' | 'typeOf' | 'update'
  >;
  /** The caller's private labels: an address_flow condition may name one (`label`) instead of an address. */
  labels?: LabelTargets;
}

export function alertsRoutes(deps: AlertsRouteDeps): RouteModule {
  const { alerts } = deps;
  return async (app) => {
    for (const schema of [AlertTriggeredEvent, AlertCappedEvent, OnchainFlowEvent]) app.addSchema(schema);

    app.post(
      '/api/alerts',
      {
        config: { permission: 'alerts:write' },
        attachValidation: true,
        schema: {
          operationId: 'createAlertRule',
          tags: ['alerts'],
          summary:
            'Create an alert rule (price, volume, address_flow, funding, open_interest or liquidations)',
          body: CreateRule,
          response: { 201: Rule, 400: ProblemSchema, 409: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        if (request.validationError) rejectBody(alerts, request.body, bodyProblems(request));
        await targetLabel(deps.labels, request.principal!.orgId, request.body.condition);
        const view = await alerts.create(
          { accountId: request.principal!.orgId, plan: request.principal!.plan },
          request.body,
        );
        noteNormalized(reply, view);
        reply.code(201);
        return view;
      },
    );

    app.post(
      '/api/alerts/backtest',
      {
        config: { permission: 'alerts:read' },
        attachValidation: true,
        schema: {
          operationId: 'backtestAlertRule',
          tags: ['alerts'],
          summary:
            'Every time a rule (not saved) would have fired over a past window, replayed from stored candles or flows',
          body: CreateRule,
          querystring: BacktestQuery,
          response: { 200: Backtest, 400: ProblemSchema, 503: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const invalid = request.validationError;
        if (invalid?.validationContext === 'querystring')
          throw validationError(validationProblems(invalid.validation ?? [], 'querystring'));
        if (invalid) rejectBody(alerts, request.body, bodyProblems(request));
        await targetLabel(deps.labels, request.principal!.orgId, request.body.condition);
        const result = await alerts.backtest(
          { accountId: request.principal!.orgId, plan: request.principal!.plan },
          request.body,
          request.query,
        );
        noteNormalized(reply, result);
        return result;
      },
    );

    app.get(
      '/api/alerts',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'listAlertRules',
          tags: ['alerts'],
          summary: "The account's alert rules, newest first",
          querystring: ListQuery,
          response: { 200: RulePage, 400: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const page = await alerts.list(request.principal!.orgId, request.query);
        if (request.query.limit !== undefined)
          new NormalizationLog()
            .add('limit', String(request.query.limit), String(page.applied.limit))
            .apply(reply);
        return page;
      },
    );

    app.get(
      '/api/alerts/:id',
      {
        config: { permission: 'alerts:read' },
        schema: {
          operationId: 'getAlertRule',
          tags: ['alerts'],
          summary: 'One alert rule',
          params: RuleId,
          response: { 200: Rule, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request) => alerts.get(request.principal!.orgId, request.params.id),
    );

    app.patch(
      '/api/alerts/:id',
      {
        config: { permission: 'alerts:write' },
        attachValidation: true,
        schema: {
          operationId: 'updateAlertRule',
          tags: ['alerts'],
          summary:
            'Edit a rule; state active/paused resumes or pauses it (a condition edit resets its crossing side)',
          params: RuleId,
          body: PatchRule,
          response: {
            200: Rule,
            400: ProblemSchema,
            404: ProblemSchema,
            409: ProblemSchema,
            ...authProblems,
          },
        },
      },
      async (request, reply) => {
        const accountId = request.principal!.orgId;
        const { id } = request.params;
        const type = await alerts.typeOf(accountId, id);
        if (!type) throw new AppError('not_found', `alert rule ${id} does not exist`);
        const raw: unknown = request.body;
        const edited = isRecord(raw) && raw.condition !== undefined;
        const checked = edited ? typedCondition(request, type, raw.condition) : undefined;
        const problems = [...bodyProblems(request, '/condition'), ...(checked?.problems ?? [])];
        if (problems.length) rejectBody(alerts, raw, problems);
        if (checked?.condition) await targetLabel(deps.labels, accountId, checked.condition.condition);
        const { condition: _, ...fields } = request.body;
        const view = await alerts.update({ accountId, plan: request.principal!.plan }, id, {
          ...fields,
          ...(checked?.condition ? { condition: checked.condition } : {}),
        });
        noteNormalized(reply, view);
        return view;
      },
    );

    app.delete(
      '/api/alerts/:id',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'deleteAlertRule',
          tags: ['alerts'],
          summary: 'Delete a rule (its past events stay in the event log)',
          params: RuleId,
          response: { 204: Type.Null(), 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        await alerts.remove(request.principal!.orgId, request.params.id);
        await deps.audit.record({
          action: 'alert_rule.delete',
          outcome: 'success',
          ...actorOf(request),
          target: `alert_rule:${request.params.id}`,
        });
        reply.code(204);
        return null;
      },
    );

    app.post(
      '/api/alerts/:id/test',
      {
        config: { permission: 'alerts:write' },
        schema: {
          operationId: 'testAlertRule',
          tags: ['alerts'],
          summary: 'Append a test event (test: true) for the rule, delivered like a real one',
          params: RuleId,
          response: { 202: TestFired, 404: ProblemSchema, ...authProblems },
        },
      },
      async (request, reply) => {
        const fired = await alerts.test(request.principal!.orgId, request.params.id);
        reply.code(202);
        return fired;
      },
    );
  };
}
