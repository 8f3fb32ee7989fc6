import type { FastifyRequest } from 'fastify';
import type { AuditEntry } from '../modules/audit/index.ts';

/** Who made this request, as an audit entry names them: the principal's user and credential, the client address. */
export function actorOf(request: FastifyRequest): Pick<AuditEntry, 'actorId' | 'credential' | 'address'> {
  const principal = request.principal;
  return {
    actorId: principal?.userId ?? null,
    credential: principal?.kind ?? 'none',
    address: request.ip,
  };
}
