import type { FastifyRequest } from 'fastify';
import type { AuditLog, CredentialKind } from '../modules/audit/index.ts';
import { AppError } from '../shared/errors.ts';
import type { RateLimiter } from '../shared/rate-limiter.ts';
import { type FailedAuthLimiter, createFailedAuthLimiter, failureKeys } from './credentials.ts';

/** Wrong two-factor codes one account may send per minute (from any address) before 429. */
export const codeFailuresPerMinute = 5;

/**
 * Two-factor code checks (sign-in, enrolment, turning it off), each charged before it is made to the client
 * address (the counter every failed authentication uses) and to the account (a tighter one): a wrong code
 * keeps both places and is audited as a failure, anything else gives them back.
 */
export function createCodeAttempts(deps: {
  failures: FailedAuthLimiter;
  limiter: RateLimiter;
  audit: AuditLog;
}) {
  const perAccount = createFailedAuthLimiter({ limiter: deps.limiter, limit: codeFailuresPerMinute });
  return async function codeAttempt<T>(
    request: FastifyRequest,
    userId: string,
    credential: CredentialKind,
    check: () => Promise<T>,
  ): Promise<T> {
    const addressKey = failureKeys.address(request);
    const accountKey = `authfail:2fa:${userId}`;
    await deps.failures.reserve(addressKey, 'too many failed sign-ins from this address');
    await perAccount.reserve(accountKey, 'too many wrong two-factor codes for this account; wait a minute');
    let wrong = false;
    try {
      return await check();
    } catch (error) {
      wrong = error instanceof AppError && error.code === 'invalid_code';
      if (wrong)
        await deps.audit.record({
          action: 'auth.two_factor',
          outcome: 'failure',
          actorId: userId,
          credential,
          address: request.ip,
          target: `user:${userId}`,
        });
      throw error;
    } finally {
      if (!wrong) await Promise.all([deps.failures.refund(addressKey), perAccount.refund(accountKey)]);
    }
  };
}

export type CodeAttempts = ReturnType<typeof createCodeAttempts>;
