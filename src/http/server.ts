import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import { constants as zlibConstants } from 'node:zlib';
import type { FastifyServerOptions } from 'fastify';
import Fastify from 'fastify';
import { createLogger } from '../observability/logger.ts';
import { createFailedAuthLimiter } from './credentials.ts';
import type { ServerDeps } from './deps.ts';
import { registerAuth } from './plugins/auth.ts';
import { LazyLogger } from './request-logger.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { corsPolicy } from './plugins/cors.ts';
import compress from '@fastify/compress';
import { compressionThreshold } from './encoded-body.ts';
import { hostAllowList } from './plugins/host-allow-list.ts';
import { registerInputGuard } from './plugins/input-guard.ts';
import { RequestsObserved, registerRequestContext } from './plugins/request-context.ts';
import { answerClientError, sendProblem } from './problem.ts';
import { AppError } from '../shared/errors.ts';
import { createLimitedServer } from './server-limits.ts';
import { requestIdOf } from './request-id.ts';
import type { StartupGate } from './startup-gate.ts';
import { routeModules } from './routes/index.ts';
import { webhookDocs } from './routes/webhooks.ts';
import { apiDescription, apiTags, keepSchemaNames, polishOpenApi } from './openapi/document.ts';
import type { App } from './types.ts';
import { schemaCompilers } from './schema-compilers.ts';

export interface ServerOptions {
  /** Overrides LOG_LEVEL (tests pass 'silent'). */
  logLevel?: string;
  /** Where log lines go (default stdout); tests capture them. */
  logStream?: { write(line: string): void };
  /** The port already answering while the service starts: the app is served through it once it opens. */
  gate?: StartupGate;
}

export type { ServerDeps };

/** Builds the HTTP app (REST and push) over its dependencies: plugins first, then every route module. */
export async function buildServer(deps: ServerDeps, options: ServerOptions = {}): Promise<App> {
  const { config } = deps;
  const app = Fastify({
    // The server Fastify would build, with the timeouts and the per-address cap of server-limits.ts.
    serverFactory: (handler, opts) => {
      if (options.gate) return options.gate.inner(handler);
      const server = createLimitedServer(config, handler);
      server.setTimeout((opts as FastifyServerOptions).connectionTimeout ?? 0);
      return server;
    },
    loggerInstance: LazyLogger.over(
      options.logLevel || options.logStream
        ? createLogger(options.logLevel ?? config.logLevel, options.logStream)
        : deps.logger,
    ),
    // Counts each finished request and, at debug level, logs it (plugins/request-context.ts).
    logController: new RequestsObserved(
      deps.metrics.http,
      ['debug', 'trace'].includes(options.logLevel ?? config.logLevel),
      deps.portfolio.usage,
    ),
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    genReqId: requestIdOf,
    ajv: {
      customOptions: {
        allErrors: true,
        coerceTypes: 'array',
        useDefaults: true,
        removeAdditional: false,
        // `type: ['string', 'number']` for values that may be either (exact decimals as JSON numbers or text).
        allowUnionTypes: true,
        // `discriminator: { propertyName }` on a oneOf: only the branch the value's tag names is validated.
        discriminator: true,
      },
    },
    schemaController: { compilersFactory: schemaCompilers },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors Fastify raises before routing (a URL that does not decode, an over-long path parameter) get the
    // same problem document and request id as every other error.
    frameworkErrors: (error, _request, reply) => {
      const tooLong = error.code === 'FST_ERR_MAX_PARAM_LENGTH';
      sendProblem(
        reply,
        new AppError(
          tooLong ? 'validation_failed' : 'bad_request',
          tooLong
            ? 'a path parameter is longer than 200 characters'
            : `the URL does not decode: ${error.message}`,
        ),
      );
    },
    // Requests Node cannot parse are answered before Fastify has a request (problem.ts).
    clientErrorHandler: answerClientError,
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  const failures = createFailedAuthLimiter({
    limiter: deps.limiter,
    limit: config.authFailureLimit,
    onBlocked: () => deps.metrics.rateLimited.inc({ reason: 'auth_failures' }),
  });
  const auth = registerAuth(app, { ...deps, failures });
  const cors = corsPolicy(config.corsOrigins);
  registerRequestContext(app, { guardFor: auth.guardFor, cors, hosts: hostAllowList(config) });
  registerErrorHandling(app);
  registerInputGuard(app);
  cors.registerPreflight(app);
  // A GET or HEAD has no body to inflate: such routes skip @fastify/compress's per-request preParsing hook.
  app.addHook('onRoute', (route) => {
    if ([route.method].flat().every((m) => m === 'GET' || m === 'HEAD')) route.decompress ??= false;
  });
  // Bodies serialized per request (history, lists) compressed when asked. Routes answering only with bytes
  // serialized ahead of time (`sendBytes`, which encodes them once per buffer) say `compress: false`.
  await app.register(compress, {
    threshold: compressionThreshold,
    encodings: ['br', 'gzip'],
    brotliOptions: { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 5 } },
  });
  await app.register(swagger, {
    // Shared schemas (app.addSchema) appear under their own $id in components.schemas, so documents outside
    // the paths (the webhooks section) can refer to them by name.
    refResolver: {
      buildLocalReference: (json, _baseUri, _fragment, i) =>
        typeof json.$id === 'string' ? json.$id : `def-${i}`,
    },
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Meridian API', version: '1.0.0', description: apiDescription },
      tags: apiTags,
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API token (mrd_…)' } },
      },
      security: [{ bearer: [] }],
      webhooks: webhookDocs,
    },
    // Named components, problem responses and captured examples (openapi/document.ts).
    transform: keepSchemaNames,
    transformObject: (documentObject) =>
      'openapiObject' in documentObject
        ? polishOpenApi(documentObject.openapiObject)
        : documentObject.swaggerObject,
  });
  // staticCSP: Swagger UI's pages get a Content-Security-Policy with the hashes of its inline code.
  await app.register(swaggerUi, { routePrefix: '/docs', staticCSP: true });

  for (const register of routeModules(deps, auth))
    await app.register(async (scope) => register(scope as App));
  app.decorate('routeAccess', auth.routes);
  return app;
}
