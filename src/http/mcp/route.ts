import { injectCaller } from './caller.ts';
import { AppError } from '../../shared/errors.ts';
import { bearerChallenge } from '../credentials.ts';
import type { AuthApi } from '../plugins/auth.ts';
import type { App, RouteModule } from '../types.ts';

/** The MCP SDK and the tools over it, loaded at the first MCP request: a start does not wait for them. */
let loading:
  | Promise<
      typeof import('./server.ts') &
        typeof import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js')
    >
  | undefined;
const mcpSdk = () =>
  (loading ??= Promise.all([
    import('./server.ts'),
    import('@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js'),
  ]).then(([server, transport]) => ({ ...server, ...transport })));

export interface McpRouteDeps {
  auth: Pick<AuthApi, 'authenticate'>;
}

/**
 * POST /mcp — the Model Context Protocol over Streamable HTTP, stateless (one JSON-RPC exchange per request,
 * JSON answers, no session). The caller's bearer token is checked here (401 with a challenge, counted like
 * any failed authentication) but not charged: each tool call is then one REST request made through the app
 * with the same token, which charges the rate limit, checks the permission and validates the arguments.
 */
export function mcpRoutes(deps: McpRouteDeps): RouteModule {
  return async (app) => {
    // The root instance: route modules are encapsulated, and inject must reach every route.
    const root = app as App;
    app.post('/mcp', { config: { auth: 'none' }, schema: { hide: true } }, async (request, reply) => {
      const authorization = request.headers.authorization;
      if (!authorization?.startsWith('Bearer '))
        throw new AppError('unauthenticated', 'MCP needs an API token: Authorization: Bearer mrd_…', {
          headers: { 'www-authenticate': bearerChallenge },
        });
      await deps.auth.authenticate(request, 'token');

      const call = injectCaller(root, {
        authorization,
        host: request.headers.host,
        remoteAddress: request.ip,
      });
      const { createMcpServer, WebStandardStreamableHTTPServerTransport } = await mcpSdk();
      const server = createMcpServer(call);
      const transport = new WebStandardStreamableHTTPServerTransport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const headers = new Headers();
        for (const [name, value] of Object.entries(request.headers))
          if (typeof value === 'string') headers.set(name, value);
        const answer = await transport.handleRequest(
          new Request(`http://${request.headers.host ?? 'localhost'}/mcp`, { method: 'POST', headers }),
          { parsedBody: request.body },
        );
        reply.code(answer.status);
        answer.headers.forEach((value, name) => {
          reply.header(name, value);
        });
        return reply.send(await answer.text());
      } finally {
        await server.close();
      }
    });

    // Stateless: no server-initiated stream (GET) and no session to end (DELETE).
    app.route({
      method: ['GET', 'DELETE'],
      url: '/mcp',
      config: { auth: 'none' },
      schema: { hide: true },
      handler: async () => {
        throw new AppError(
          'method_not_allowed',
          'this MCP endpoint is stateless: POST JSON-RPC messages to it',
          {
            headers: { allow: 'POST' },
          },
        );
      },
    });
  };
}
