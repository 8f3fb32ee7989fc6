import { isRecord, type TopicDecoders, topics } from '../../shared/bus.ts';

/**
 * `accounts.token-revoked`, the one "cached credentials are stale" message: a revoked token (by hash), a user
 * whose role, plan or membership changed, or an organization whose plan or two-factor rule changed. Every
 * replica drops what it cached; push hubs close the token's sockets.
 */
export type CredentialsChanged = { hash: string } | { userId: string } | { orgId: string };

export interface AccountsTopics {
  [topics.tokenRevoked]: CredentialsChanged;
}

export const accountsTopicDecoders: TopicDecoders<AccountsTopics> = {
  [topics.tokenRevoked]: (raw) => {
    if (!isRecord(raw)) return undefined;
    const hash = typeof raw.hash === 'string' ? raw.hash : undefined;
    const userId = typeof raw.userId === 'string' ? raw.userId : undefined;
    if (hash !== undefined && userId !== undefined) return { hash, userId };
    if (hash !== undefined) return { hash };
    if (userId !== undefined) return { userId };
    if (typeof raw.orgId === 'string') return { orgId: raw.orgId };
    return undefined;
  },
};
