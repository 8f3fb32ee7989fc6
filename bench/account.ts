import { writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compare, printTable, startTarget, stopTarget } from './lib.ts';

/**
 * Authenticated GET /api/account (token shape + checksum, cached token lookup, permission check, rate-limit
 * charge and headers) against a bare node:http server sending the same bytes, measured in alternation in the
 * same run; bare Fastify with the same bytes is shown for reference. Target: ratio ≥ 0.7 of raw.
 */
export async function run() {
  const api = await startTarget('bench/targets/api-server.ts', []);
  const headers = { authorization: `Bearer ${api.info.token}` };
  const sample = await fetch(`${api.info.url}/api/account`, { headers });
  const bodyFile = join(tmpdir(), `meridian-bench-account-${process.pid}.json`);
  writeFileSync(bodyFile, Buffer.from(await sample.arrayBuffer()));
  const raw = await startTarget('bench/targets/raw-bytes.ts', [bodyFile]);
  const bare = await startTarget('bench/targets/fastify-bytes.ts', [bodyFile]);
  try {
    const [baseline, fastify, app] = await compare([
      { name: 'raw node:http, same bytes', url: raw.info.url!, child: raw.child },
      { name: 'bare Fastify, same bytes', url: bare.info.url!, child: bare.child },
      { name: 'Meridian GET /api/account', url: `${api.info.url}/api/account`, headers, child: api.child },
    ]);
    printTable('Account endpoint', [baseline!, fastify!, app!], baseline!);
    return { ratio: app!.requestsPerSec / baseline!.requestsPerSec };
  } finally {
    await Promise.all([stopTarget(api.child), stopTarget(raw.child), stopTarget(bare.child)]);
  }
}
