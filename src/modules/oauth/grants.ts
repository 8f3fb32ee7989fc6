import type { Clock } from '../../shared/clock.ts';
import { AppError } from '../../shared/errors.ts';
import type { OAuthAccountsPort } from './ports.ts';
import { type OAuthGrantView, presentGrant } from './present.ts';
import type { OAuthRepository } from './repository.ts';

export type GrantRevocationReason =
  | 'user'
  | 'client'
  | 'client_deleted'
  | 'refresh_token_reuse'
  | 'code_reuse';

/**
 * Grants as families: revoking one marks it revoked (its refresh tokens are refused from then on) and
 * revokes every access token issued under it, on every replica.
 */
export function createGrants(deps: { repo: OAuthRepository; accounts: OAuthAccountsPort; clock: Clock }) {
  const { repo, accounts, clock } = deps;

  /** Idempotent: the tokens are revoked again even when the grant already was (a half-done earlier try). */
  async function revokeFamily(grantId: string, reason: GrantRevocationReason): Promise<void> {
    await repo.revokeGrant(grantId, clock.now(), reason);
    await accounts.revokeGrantTokens(grantId);
  }

  return {
    revokeFamily,
    listGrants: async (userId: string): Promise<OAuthGrantView[]> =>
      (await repo.listGrants(userId)).map(presentGrant),
    /** An account withdraws an app's access. Another account's grant answers like a missing one. */
    async revokeGrant(userId: string, grantId: string): Promise<void> {
      const grant = await repo.findGrant(grantId);
      if (!grant || grant.user_id !== userId || grant.revoked_at !== null)
        throw new AppError('not_found', `no authorized app with grant id ${grantId}`);
      // audit: OAuth grant revoked by its account (grant.id, grant.client_id, userId)
      await revokeFamily(grant.id, 'user');
    },
  };
}

export type Grants = ReturnType<typeof createGrants>;
