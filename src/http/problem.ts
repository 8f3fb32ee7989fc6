import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, type ProblemDetail, errorCatalogue } from '../shared/errors.ts';

/** RFC 9457 problem document as Meridian sends it. */
export interface Problem {
  type: string;
  title: string;
  status: number;
  detail: string;
  code: ErrorCode;
  requestId: string;
  instance: string;
  errors?: ProblemDetail[];
  [extra: string]: unknown;
}

export const problemType = (code: ErrorCode) => `/problems/${code}`;

export function toProblem(error: AppError, request: FastifyRequest): Problem {
  return {
    type: problemType(error.code),
    title: errorCatalogue[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    requestId: request.id,
    instance: request.url.split('?')[0] ?? request.url,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.extra ?? {}),
  };
}

export function sendProblem(reply: FastifyReply, error: AppError) {
  if (error.headers) reply.headers(error.headers);
  // Also for requests that never reached a route's entry hook (no route matched, undecodable URL).
  reply.header('x-request-id', reply.request.id);
  return reply
    .code(error.status)
    .type('application/problem+json')
    .send(JSON.stringify(toProblem(error, reply.request)));
}

export { AppError };
