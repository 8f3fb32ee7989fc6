import type { Duplex } from 'node:stream';
import { newRequestId } from '../shared/ids.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { AppError, type ErrorCode, type ProblemDetail, errorCatalogue } from '../shared/errors.ts';
import { securityHeaderLines, securityHeadersFor, setSecurityHeaders } from './security-headers.ts';

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

/** The problem document of an error; outside Fastify (the worker's ops port) without a request id. */
export function problemOf(error: AppError, instance: string, requestId?: string): Omit<Problem, 'requestId'> {
  return {
    type: problemType(error.code),
    title: errorCatalogue[error.code].title,
    status: error.status,
    detail: error.message,
    code: error.code,
    ...(requestId === undefined ? {} : { requestId }),
    instance,
    ...(error.errors ? { errors: error.errors } : {}),
    ...(error.extra ?? {}),
  };
}

function toProblem(error: AppError, request: FastifyRequest): Problem {
  return problemOf(error, request.url.split('?')[0] ?? request.url, request.id) as Problem;
}

export function sendProblem(reply: FastifyReply, error: AppError) {
  if (error.headers) reply.headers(error.headers);
  // Also for requests that never reached a route's entry hook (no route matched, undecodable URL).
  reply.header('x-request-id', reply.request.id);
  if (!reply.hasHeader('x-content-type-options'))
    setSecurityHeaders(reply, securityHeadersFor(reply.request.routePattern));
  return reply
    .code(error.status)
    .type('application/problem+json')
    .send(JSON.stringify(toProblem(error, reply.request)));
}

export { AppError };

/**
 * The raw HTTP answer for a request Node could not parse (Fastify's `clientErrorHandler`: no request object
 * exists, so no route, hook or reply). The same problem document as every other error, with a fresh request
 * id; the connection is closed after it, as Node does.
 */
export function clientErrorAnswer(
  code: 'bad_request' | 'request_timeout' | 'headers_too_large' | 'unavailable',
  detail: string,
  requestId: string,
): string {
  const { status, title } = errorCatalogue[code];
  const body = JSON.stringify({ type: problemType(code), title, status, detail, code, requestId });
  return (
    `HTTP/1.1 ${status} ${title}\r\nContent-Type: application/problem+json\r\n` +
    `Content-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${requestId}\r\n${securityHeaderLines}` +
    `Connection: close\r\n\r\n${body}`
  );
}

/**
 * Node's `clientError` (oversized headers, malformed HTTP, a request that never completes): the same problem
 * document as every other error, written to the socket, which is then closed.
 */
export function answerClientError(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  if (socket.writable) {
    const answer =
      error.code === 'HPE_HEADER_OVERFLOW'
        ? clientErrorAnswer('headers_too_large', 'the request line and headers exceed 16 KB', newRequestId())
        : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? clientErrorAnswer('request_timeout', 'the request did not arrive in time', newRequestId())
          : clientErrorAnswer('bad_request', 'the request is not valid HTTP/1.1', newRequestId());
    socket.write(answer);
  }
  socket.destroy(error);
}
