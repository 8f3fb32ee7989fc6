import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Config } from '../../../config/env.ts';
import type { AuthApi } from '../../plugins/auth.ts';
import type { App, RouteModule } from '../../types.ts';
import type { AccountsService } from '../../../modules/accounts/index.ts';
import type { EventsRepository } from '../../../modules/events/index.ts';
import { type Bus, topics } from '../../../shared/bus.ts';
import { AppError } from '../../../shared/errors.ts';
import {
  type Hold,
  answerProtocol,
  createUpgradeAuthenticator,
  credentialRechecks,
  followBus,
  hubOptionsOf,
  type PushTopics,
  registerUpgradeRoute,
  reserveConnection,
  upgradeHeaders,
} from '../handshake.ts';
import type { ConnectionSlotsFactory } from '../../../shared/connection-slots.ts';
import { PROTOCOL } from '../predictions/protocol.ts';
import { registerWebSocketScope, setChosenSubprotocol } from '../server-options.ts';
import {
  type EventsAdmission,
  type EventsHub,
  type EventsHubOptions,
  createEventsHub,
  defaultEventsHubOptions,
} from './hub.ts';

export interface EventsStreamDeps {
  config: Pick<Config, 'wsAllowedOrigins' | 'wsPingIntervalMs' | 'wsSendBufferBytes' | 'eventRetentionHours'>;
  bus: Bus<PushTopics>;
  connectionSlots: ConnectionSlotsFactory;
  accounts: Pick<AccountsService, 'isTokenStillValid' | 'authenticateSession'>;
  events: Pick<EventsRepository, 'listForAccount' | 'findForAccount'>;
  /** The account's latest event `seq` (0 when none): where a stream opened without `after` starts. */
  latestSeq(accountId: string): Promise<number>;
  hub?: Partial<EventsHubOptions>;
  onHub?(hub: EventsHub): void;
}

const eventIdPattern = /^evt_[0-9A-Za-z]{1,64}$/;

/**
 * WebSocket `/events`: the account's event stream (the same events its webhooks receive, each message the
 * event body text). Authenticated exactly like `/predictions` (Bearer header, token as subprotocol, or the
 * console session) and needs `alerts:read`. `?after=<event id>` resumes after that event (kept at least
 * MERIDIAN_EVENT_RETENTION_HOURS); without it the stream starts at the handshake.
 */
export function eventsStreamRoutes(deps: EventsStreamDeps, auth: AuthApi): RouteModule {
  return async (app: App) => {
    await registerWebSocketScope(app, ['/events']);
    const { config, bus, accounts } = deps;
    const options = hubOptionsOf(config, defaultEventsHubOptions, deps.hub);
    const hub = createEventsHub(
      {
        events: deps.events,
        slots: deps.connectionSlots('events', options.pingIntervalMs * 3),
        ...credentialRechecks(accounts),
        log: app.log,
      },
      options,
    );
    deps.onHub?.(hub);
    await followBus(app, bus, topics.accountEvent, (event) => hub.publish(event), hub);

    const authenticateUpgrade = createUpgradeAuthenticator(auth, config.wsAllowedOrigins);

    async function resumeSeq(accountId: string, after: unknown): Promise<number> {
      if (after === undefined) return deps.latestSeq(accountId);
      const problem = (message: string) =>
        new AppError('validation_failed', `after: ${message}`, {
          errors: [{ pointer: '/query/after', message }],
        });
      if (typeof after !== 'string' || !eventIdPattern.test(after))
        throw problem('must be an event id (evt_…)');
      const event = await deps.events.findForAccount(accountId, after);
      if (!event)
        throw problem(
          `no event ${after} on this account: unknown, or older than the ${config.eventRetentionHours}-hour retention (reconnect without after to start from now)`,
        );
      return event.seq;
    }

    async function handshake(request: FastifyRequest, reply: FastifyReply, hold: Hold<EventsAdmission>) {
      const credential = await authenticateUpgrade(request, reply, 'alerts:read');
      const { principal } = credential;
      const afterSeq = await resumeSeq(principal.orgId, (request.query as { after?: unknown }).after);
      const connectionId = await reserveConnection(hub, principal, 'event streams');
      hold(
        {
          principal,
          credentialKey: credential.credentialKey,
          sessionSecret: credential.sessionSecret,
          connectionId,
          afterSeq,
        },
        upgradeHeaders(reply, request.id),
        () => hub.unreserve(principal, connectionId),
      );
      setChosenSubprotocol(request.raw, answerProtocol(credential, PROTOCOL));
    }

    registerUpgradeRoute(app, {
      url: '/events',
      docs: 'docs/webhooks.md',
      handshake,
      adopt: (socket, admission) => hub.adopt(socket, admission),
    });
  };
}
