import type { FastifyReply } from 'fastify';
import { compressionThreshold, encodedAs, etagOf, matchesEtag, preferredEncoding } from './encoded-body.ts';

/**
 * Sends bytes serialized ahead of time (hot snapshots, cached bodies) with an ETag (a matching
 * `If-None-Match` gets 304) and, when the client asks and the body is large enough, compressed — the ETag
 * and the compressed variants are computed once per buffer (encoded-body.ts), so a body sent many times per
 * refresh is hashed and compressed once; `@fastify/compress` leaves a body with a `Content-Encoding` alone.
 * The route's response schema still documents the body; a route with a typed reply hands it here as a plain
 * `FastifyReply`, whose `send` takes the bytes as they are.
 */
export function sendBytes(reply: FastifyReply, bytes: Buffer | string): FastifyReply {
  if (typeof bytes === 'string') return reply.send(bytes);
  const headers = reply.request.headers;
  const etag = etagOf(bytes);
  reply.header('etag', etag);
  if (matchesEtag(headers['if-none-match'], etag)) return reply.code(304).send();
  if (bytes.length < compressionThreshold) return reply.send(bytes);
  const vary = reply.getHeader('vary');
  reply.header('vary', vary ? `${vary}, accept-encoding` : 'accept-encoding');
  const encoding = preferredEncoding(headers['accept-encoding']);
  if (encoding === undefined) return reply.send(bytes);
  reply.header('content-encoding', encoding);
  return reply.send(encodedAs(bytes, encoding));
}
