import type { IncomingMessage } from 'node:http';
import { newRequestId } from '../shared/ids.ts';

const requestIdPattern = /^[A-Za-z0-9._:-]{1,128}$/;

/** The request id of a request: a sane incoming `X-Request-Id` is kept, anything else replaced by a new one. */
export function requestIdOf(req: IncomingMessage): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && requestIdPattern.test(given) ? given : newRequestId();
}
