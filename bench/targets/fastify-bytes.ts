// Fastify with no plugins answering with the given bytes (and, optionally, the given response headers; see
// raw-bytes.ts): shows what the framework alone costs.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const body = readFileSync(process.argv[2]!);
const headers: Record<string, string> = process.argv[3]
  ? JSON.parse(readFileSync(process.argv[3], 'utf8'))
  : { 'content-type': 'application/json; charset=utf-8' };
delete headers['content-length'];
const app = Fastify();
app.get('/*', (_req, reply) => {
  reply.headers(headers).send(body);
});
await app.listen({ port: 0, host: '127.0.0.1' });
const { port } = app.server.address() as { port: number };
console.log(`READY ${JSON.stringify({ url: `http://127.0.0.1:${port}/` })}`);
process.on('SIGTERM', () => app.close().then(() => process.exit(0)));
