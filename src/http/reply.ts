import type { FastifyReply } from 'fastify';

/**
 * Sends bytes serialized ahead of time (hot snapshots, cached bodies). The route's response schema still
 * documents them, but Fastify's typed `send` admits only the schema's object type, so the one cast lives here.
 */
export function sendBytes(reply: FastifyReply, bytes: Buffer | string): FastifyReply {
  return reply.send(bytes as never);
}
