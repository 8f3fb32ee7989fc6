import { randomUUID } from 'node:crypto';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import Fastify, { LogController } from 'fastify';
import type { Container } from '../app/container.ts';
import { createLogger } from '../app/logger.ts';
import { registerAuth } from './plugins/auth.ts';
import { lazyRequestLogger } from './request-logger.ts';
import { registerErrorHandling } from './plugins/errors.ts';
import { registerInputGuard } from './plugins/input-guard.ts';
import { sendProblem } from './problem.ts';
import { AppError } from '../shared/errors.ts';
import { routeModules } from './routes/index.ts';
import type { App } from './types.ts';

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

export interface ServerOptions {
  /** Overrides LOG_LEVEL (tests pass 'silent'). */
  logLevel?: string;
  /** Where log lines go (default stdout); tests capture them. */
  logStream?: { write(line: string): void };
}

/** Builds the HTTP app for a container: plugins first, then every route module. */
export async function buildServer(container: Container, options: ServerOptions = {}): Promise<App> {
  const { config } = container;
  const app = Fastify({
    loggerInstance:
      options.logLevel || options.logStream
        ? createLogger(options.logLevel ?? config.logLevel, options.logStream)
        : container.logger,
    // Per-request lines are written by our own onResponse hook at debug level (see below).
    logController: new LogController({ disableRequestLogging: true }),
    childLoggerFactory: lazyRequestLogger,
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && requestIdPattern.test(given) ? given : randomUUID();
    },
    ajv: {
      customOptions: { allErrors: true, coerceTypes: 'array', useDefaults: true, removeAdditional: false },
    },
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // Errors Fastify raises before routing (a URL that does not decode, an over-long path parameter) get the
    // same problem document and request id as every other error.
    frameworkErrors: (error, request, reply) => {
      reply.header('x-request-id', request.id);
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
  }).withTypeProvider<TypeBoxTypeProvider>() as unknown as App;

  const logEachRequest = ['debug', 'trace'].includes(options.logLevel ?? config.logLevel);
  registerErrorHandling(app);
  registerInputGuard(app);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Meridian API',
        version: '1.0.0',
        description:
          'Crypto market aggregates, OHLC history, on-chain exchange flows, alerts, portfolio and calibrated ' +
          'intraday forecasts. Every /api route needs `Authorization: Bearer <token>`. Errors are RFC 9457 ' +
          'problem documents with a stable `code`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: 'API token (mrd_…)' } },
      },
      security: [{ bearer: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  // Callback hooks (not async): every request runs them, and a promise turn each is measurable.
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  const { http } = container.metrics;
  app.addHook('onResponse', (request, reply, done) => {
    http
      .series(request.method, request.routeOptions.url ?? 'unmatched', reply.statusCode)
      .record(reply.elapsedTime / 1000);
    if (logEachRequest) {
      request.log.debug(
        {
          method: request.method,
          url: request.url,
          status: reply.statusCode,
          ms: Math.round(reply.elapsedTime),
        },
        'request',
      );
    }
    done();
  });

  const auth = registerAuth(app, container);
  for (const register of routeModules(container, auth))
    await app.register(async (scope) => register(scope as App));
  app.decorate('routeAccess', auth.routes);
  return app;
}
