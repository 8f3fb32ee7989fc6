import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Permission, Principal } from '../modules/accounts/index.ts';

/** The Fastify instance type every route module receives: TypeBox schemas drive its types. */
export type App = FastifyInstance<
  Server,
  IncomingMessage,
  ServerResponse,
  FastifyBaseLogger,
  TypeBoxTypeProvider
>;

/** What one authenticated route requires (listed for tests and docs). */
export interface RouteAccess {
  method: string;
  url: string;
  mode: 'token' | 'session';
  permission: Permission;
}

/** A route module: a function that registers its routes on the app. */
export type RouteModule = (app: App) => Promise<void> | void;

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * How the route authenticates. `token` (default under /api): API token or console session;
     * `session`: console session only (token management); `none`: public.
     */
    auth?: 'token' | 'session' | 'none';
    /** The permission the caller needs. Required on every authenticated route. */
    permission?: Permission;
  }
  interface FastifyInstance {
    /** Every authenticated route with the permission it needs. */
    routeAccess?: () => readonly RouteAccess[];
  }
  interface FastifyRequest {
    principal?: Principal;
    /** The account the request was charged to (or refused for its rate limit); counted in its API usage. */
    accountId?: string;
    /** Who the request counts for in usage: `console` (a session) or the API token's id. */
    usageClient?: string;
    /** The matched route's pattern (e.g. `/api/account/tokens/:id`); unset when no route matched. */
    routePattern?: string;
  }
}
