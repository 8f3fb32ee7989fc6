import type { FastifyError, FastifyRequest } from 'fastify';
import { AppError, type ProblemDetail } from '../../shared/errors.ts';
import { sendProblem } from '../problem.ts';
import type { App } from '../types.ts';

type AjvError = {
  instancePath: string;
  schemaPath?: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
};

const partName: Record<string, string> = {
  querystring: 'query',
  body: 'body',
  params: 'path',
  headers: 'headers',
};

/** Turns schema-validation errors into JSON-pointer problems, one per failing value. */
export function validationProblems(errors: AjvError[], context: string): ProblemDetail[] {
  const base = `/${partName[context] ?? context}`;
  const seen = new Set<string>();
  const out: ProblemDetail[] = [];
  // A union of literals fails as one `const` error per branch, then `anyOf`: say the allowed values once.
  const literalUnions = new Map<string, unknown[]>();
  for (const e of errors) {
    if (e.keyword !== 'anyOf' || !e.schemaPath) continue;
    const branches = errors.filter((b) => b.schemaPath?.startsWith(`${e.schemaPath}/`));
    if (branches.length && branches.every((b) => b.keyword === 'const'))
      literalUnions.set(
        e.instancePath,
        branches.map((b) => b.params.allowedValue),
      );
  }
  for (const e of errors) {
    let pointer = base + e.instancePath;
    let message = e.message ?? 'is not valid';
    const literals = literalUnions.get(e.instancePath);
    if (literals && (e.keyword === 'const' || e.keyword === 'anyOf')) {
      message = `must be one of ${literals.join(', ')}`;
    } else if (e.keyword === 'required' && typeof e.params.missingProperty === 'string') {
      pointer += `/${e.params.missingProperty}`;
      message = 'is required';
    } else if (e.keyword === 'additionalProperties' && typeof e.params.additionalProperty === 'string') {
      pointer += `/${e.params.additionalProperty}`;
      message = 'is not an accepted field';
    } else if (e.keyword === 'enum' && Array.isArray(e.params.allowedValues)) {
      message = `must be one of ${(e.params.allowedValues as unknown[]).join(', ')}`;
    } else if (e.keyword === 'discriminator' && typeof e.params.tag === 'string') {
      // A union told apart by a tag (`discriminator: true`): the tag is what is wrong, and a schema that also
      // declares the tag (required, enum) has already said how.
      pointer += `/${e.params.tag}`;
      if (out.some((p) => p.pointer === pointer)) continue;
      message = e.params.tagValue === undefined ? 'is required' : 'is not one of the accepted values';
    }
    const key = `${pointer} ${message}`;
    if (!seen.has(key)) {
      seen.add(key);
      out.push({ pointer, message });
    }
  }
  return out;
}

function fromFastifyError(error: FastifyError, request: FastifyRequest): AppError {
  if (error.validation) {
    const problems = validationProblems(error.validation as AjvError[], error.validationContext ?? 'body');
    return new AppError('validation_failed', problems.map((p) => `${p.pointer} ${p.message}`).join('; '), {
      errors: problems,
    });
  }
  switch (error.code) {
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError(
        'payload_too_large',
        `the body exceeds ${request.routeOptions.bodyLimit ?? 1_048_576} bytes`,
      );
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError(
        'unsupported_media_type',
        `content type ${JSON.stringify(request.headers['content-type'] ?? '')} is not accepted here; send application/json`,
      );
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('bad_request', 'the body is empty but the content type says JSON');
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request', `the body is not valid JSON: ${error.message}`);
  }
  if (error.statusCode && error.statusCode >= 400 && error.statusCode < 500) {
    // Fastify's own client errors (bad JSON etc.): keep the status, give a stable code.
    const code =
      error.statusCode === 413
        ? 'payload_too_large'
        : error.statusCode === 415
          ? 'unsupported_media_type'
          : 'bad_request';
    return new AppError(code, error.message);
  }
  return new AppError('internal', 'an unexpected error occurred; the request id identifies it in the logs');
}

/**
 * One error envelope for the whole API. Only AppErrors and Fastify's own client errors reach the client
 * with their message; anything else is logged and answered as a generic 500 — never a stack or SQL text.
 */
export function registerErrorHandling(app: App) {
  const routes: Array<{ method: string; pattern: RegExp }> = [];
  app.addHook('onRoute', (route) => {
    // The CORS preflight route (`OPTIONS *`) answers every path; it says nothing about which paths exist.
    if (route.url === '*') return;
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const pattern = new RegExp(
      `^${route.url
        .replace(/[.+?^${}()|[\]\\]/g, '\\$&')
        .replace(/:[^/]+/g, '[^/]+')
        .replace(/\*/g, '.*')}/?$`,
    );
    for (const method of methods) routes.push({ method, pattern });
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const appError = error instanceof AppError ? error : fromFastifyError(error, request);
    if (appError.status >= 500) request.log.error({ err: error }, 'request failed');
    return sendProblem(reply, appError);
  });

  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split('?')[0] ?? '';
    const allowed = [...new Set(routes.filter((r) => r.pattern.test(path)).map((r) => r.method))];
    if (allowed.length) {
      const allow = allowed.includes('GET') && !allowed.includes('HEAD') ? [...allowed, 'HEAD'] : allowed;
      return sendProblem(
        reply,
        new AppError(
          'method_not_allowed',
          `${request.method} is not allowed on ${path}; use ${allow.join(', ')}`,
          {
            headers: { allow: allow.join(', ') },
          },
        ),
      );
    }
    return sendProblem(reply, new AppError('route_not_found', `no route ${request.method} ${path}`));
  });
}
