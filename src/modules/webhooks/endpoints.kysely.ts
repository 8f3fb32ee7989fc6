import type { Kysely, Selectable } from 'kysely';
import type { EventType } from '../events/index.ts';
import type { EndpointsRepository } from './repository.ts';
import type { WebhookEndpointsTable, WebhooksTables } from './tables.ts';
import type { ChannelKind, EndpointStatus, WebhookEndpoint } from './types.ts';

/** The webhook endpoints on Kysely (PostgreSQL or PGlite); the deliveries are in repository.kysely.ts. */

function endpointFromRow(row: Selectable<WebhookEndpointsTable>): WebhookEndpoint {
  return {
    id: row.id,
    kind: row.kind as ChannelKind,
    name: row.name,
    accountId: row.account_id,
    url: row.url,
    events: (typeof row.events === 'string' ? JSON.parse(row.events) : row.events) as EventType[],
    description: row.description,
    secretSealed: row.secret_sealed,
    previousSecretSealed: row.previous_secret_sealed,
    previousSecretExpiresAt:
      row.previous_secret_expires_at === null ? null : Number(row.previous_secret_expires_at),
    status: row.status as EndpointStatus,
    disabledReason: row.disabled_reason,
    verification:
      row.verify_hash === null
        ? null
        : {
            hash: row.verify_hash,
            expiresAt: Number(row.verify_expires_at),
            tries: Number(row.verify_tries),
          },
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export function createKyselyEndpointsRepository(db: Kysely<WebhooksTables>): EndpointsRepository {
  return {
    async insert(e) {
      await db
        .insertInto('webhook_endpoints')
        .values({
          id: e.id,
          kind: e.kind,
          name: e.name,
          verify_hash: e.verification?.hash ?? null,
          verify_expires_at: e.verification?.expiresAt ?? null,
          verify_tries: e.verification?.tries ?? 0,
          account_id: e.accountId,
          url: e.url,
          events: JSON.stringify(e.events),
          description: e.description,
          secret_sealed: e.secretSealed,
          previous_secret_sealed: e.previousSecretSealed,
          previous_secret_expires_at: e.previousSecretExpiresAt,
          status: e.status,
          disabled_reason: e.disabledReason,
          created_at: e.createdAt,
          updated_at: e.updatedAt,
        })
        .execute();
    },
    async find(accountId, id) {
      const row = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return row ? endpointFromRow(row) : undefined;
    },
    async findById(id) {
      const row = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('id', '=', id)
        .executeTakeFirst();
      return row ? endpointFromRow(row) : undefined;
    },
    async list(accountId) {
      const rows = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('account_id', '=', accountId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return rows.map(endpointFromRow);
    },
    async countForAccount(accountId) {
      const row = await db
        .selectFrom('webhook_endpoints')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow();
      return Number(row.n);
    },
    async delete(accountId, id) {
      const result = await db
        .deleteFrom('webhook_endpoints')
        .where('id', '=', id)
        .where('account_id', '=', accountId)
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async updateSecrets(id, secrets, at) {
      await db
        .updateTable('webhook_endpoints')
        .set({
          secret_sealed: secrets.sealed,
          previous_secret_sealed: secrets.previousSealed,
          previous_secret_expires_at: secrets.previousExpiresAt,
          updated_at: at,
        })
        .where('id', '=', id)
        .execute();
    },
    async updateVerification(id, change, at) {
      await db
        .updateTable('webhook_endpoints')
        .set({
          status: change.status,
          verify_hash: change.verification?.hash ?? null,
          verify_expires_at: change.verification?.expiresAt ?? null,
          verify_tries: change.verification?.tries ?? 0,
          updated_at: at,
        })
        .where('id', '=', id)
        .execute();
    },
    async enabledFor(accountIds) {
      if (!accountIds.length) return [];
      const rows = await db
        .selectFrom('webhook_endpoints')
        .selectAll()
        .where('account_id', 'in', [...accountIds])
        .where('status', '=', 'enabled')
        .execute();
      return rows.map(endpointFromRow);
    },
  };
}
