import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import { newId } from '../../shared/ids.ts';
import type { EventType } from '../events/index.ts';
import type { SecretBox } from './ports.ts';
import { presentDelivery, presentEndpoint } from './present.ts';
import type { DeliveriesRepository, EndpointsRepository } from './repository.ts';
import { generateSigningSecret } from './signature.ts';
import type { WebhookEndpoint } from './types.ts';
import { type UrlRules, checkWebhookUrl } from './url-check.ts';

/** Whether an alert rule exists for the account (filled by the alerts module). */
export interface AlertRules {
  exists(accountId: string, ruleId: string): Promise<boolean>;
}

export interface WebhooksServiceDeps {
  endpoints: EndpointsRepository;
  deliveries: DeliveriesRepository;
  /** Undefined when no key is configured: webhooks cannot be created, rotated or signed. */
  box: SecretBox | undefined;
  /** Why `box` is missing, for the 503 answer. */
  boxMissingReason?: string;
  urlRules: UrlRules;
  rules: AlertRules;
  clock: Clock;
  /** How long the previous secret still signs after a rotation (24 h). */
  rotationGraceMs?: number;
  maxEndpointsPerAccount?: number;
}

export interface CreateWebhook {
  url: string;
  events: EventType[];
  description?: string;
}

const ROTATION_GRACE_MS = 24 * 3_600_000;
const MAX_ENDPOINTS_PER_ACCOUNT = 20;

export type WebhooksService = ReturnType<typeof createWebhooksService>;

export function createWebhooksService(deps: WebhooksServiceDeps) {
  const { endpoints, deliveries, clock } = deps;
  const graceMs = deps.rotationGraceMs ?? ROTATION_GRACE_MS;
  const cap = deps.maxEndpointsPerAccount ?? MAX_ENDPOINTS_PER_ACCOUNT;

  const box = (): SecretBox => {
    if (deps.box) return deps.box;
    throw new AppError(
      'not_configured',
      deps.boxMissingReason ?? 'webhook secrets cannot be stored on this server',
    );
  };

  const owned = async (accountId: string, id: string): Promise<WebhookEndpoint> => {
    const endpoint = await endpoints.find(accountId, id);
    if (endpoint?.kind !== 'webhook') throw new AppError('not_found', `no webhook ${id}`);
    return endpoint;
  };

  return {
    async create(accountId: string, input: CreateWebhook) {
      const sealer = box();
      const url = await checkWebhookUrl(input.url, deps.urlRules);
      const count = (await endpoints.list(accountId)).filter((e) => e.kind === 'webhook').length;
      if (count >= cap)
        throw new AppError('conflict', `an account can have at most ${cap} webhooks; delete one first`);
      const now = clock.now();
      const id = newId('wh');
      const secret = generateSigningSecret();
      const endpoint: WebhookEndpoint = {
        id,
        kind: 'webhook',
        name: null,
        accountId,
        url,
        events: [...new Set(input.events)],
        description: input.description ?? null,
        secretSealed: sealer.seal(secret, id),
        previousSecretSealed: null,
        previousSecretExpiresAt: null,
        status: 'enabled',
        disabledReason: null,
        verification: null,
        createdAt: now,
        updatedAt: now,
      };
      await endpoints.insert(endpoint);
      return { ...presentEndpoint(endpoint, now), secret };
    },

    async list(accountId: string) {
      const now = clock.now();
      return (await endpoints.list(accountId))
        .filter((e) => e.kind === 'webhook')
        .map((e) => presentEndpoint(e, now));
    },

    async get(accountId: string, id: string) {
      return presentEndpoint(await owned(accountId, id), clock.now());
    },

    async remove(accountId: string, id: string) {
      await owned(accountId, id);
      if (!(await endpoints.delete(accountId, id))) throw new AppError('not_found', `no webhook ${id}`);
    },

    /** A new secret; the one it replaces keeps signing (as a second signature) for the grace period. */
    async rotate(accountId: string, id: string) {
      const sealer = box();
      const endpoint = await owned(accountId, id);
      const now = clock.now();
      const secret = generateSigningSecret();
      const next = {
        sealed: sealer.seal(secret, id),
        previousSealed: endpoint.secretSealed,
        previousExpiresAt: now + graceMs,
      };
      await endpoints.updateSecrets(id, next, now);
      const rotated: WebhookEndpoint = {
        ...endpoint,
        secretSealed: next.sealed,
        previousSecretSealed: next.previousSealed,
        previousSecretExpiresAt: next.previousExpiresAt,
        updatedAt: now,
      };
      return { ...presentEndpoint(rotated, now), secret };
    },

    async deliveriesOfWebhook(accountId: string, id: string, page: { limit: number; cursor?: string }) {
      await owned(accountId, id);
      const result = await deliveries.list({ accountId, endpointId: id }, page);
      return { data: result.data.map(presentDelivery), nextCursor: result.nextCursor };
    },

    async deliveriesOfRule(accountId: string, ruleId: string, page: { limit: number; cursor?: string }) {
      if (!(await deps.rules.exists(accountId, ruleId)))
        throw new AppError('not_found', `no alert rule ${ruleId}`);
      const result = await deliveries.list({ accountId, ruleId }, page);
      return { data: result.data.map(presentDelivery), nextCursor: result.nextCursor };
    },
  };
}

/** The secrets that sign a message to `endpoint` at `now`: the current one, then the retiring one if still valid. */
export function signingSecretsOf(endpoint: WebhookEndpoint, box: SecretBox, now: number): string[] {
  const secrets = [box.open(endpoint.secretSealed, endpoint.id)];
  if (
    endpoint.previousSecretSealed &&
    endpoint.previousSecretExpiresAt !== null &&
    endpoint.previousSecretExpiresAt > now
  )
    secrets.push(box.open(endpoint.previousSecretSealed, endpoint.id));
  return secrets;
}
