import type { Credential, ConnectionRegistry } from './connections.ts';
import type { HubOptions, HubStats } from './options.ts';
import { closeCodes } from './protocol.ts';

export interface CredentialChecksDeps {
  registry: ConnectionRegistry;
  stats: HubStats;
  options: Pick<HubOptions, 'expirySweepMs' | 'verifyEveryMs' | 'verifyBatch'>;
  now: () => number;
  /** Re-checks of stored credentials. */
  isTokenStillValid(tokenId: string): Promise<boolean>;
  isSessionStillValid(sessionSecret: string): Promise<boolean>;
}

/**
 * Credential re-checks of open sockets: a revocation announced on the bus closes that token's sockets at
 * once; a sweep every `expirySweepMs` closes those whose token expired (in memory) and re-checks the
 * credentials not checked for `verifyEveryMs` against the store, `verifyBatch` at a time, oldest first (the
 * backstop for a lost bus event).
 */
export function startCredentialChecks(deps: CredentialChecksDeps) {
  const { registry, stats, options, now } = deps;

  /** Closes every socket opened with a token (by its SHA-256 hash, as announced on the bus). */
  function revokeTokenHash(hash: string) {
    const credential = registry.credentials.get(`token:${hash}`);
    if (!credential) return;
    for (const conn of [...credential.sockets]) {
      stats.revoked++;
      registry.shut(conn, closeCodes.credentialsEnded, 'token revoked');
    }
  }

  let verifying = false;
  const sweepTimer = setInterval(() => {
    const t = now();
    for (const credential of registry.credentials.values()) {
      if (credential.expiresAt !== null && credential.expiresAt <= t) {
        for (const conn of [...credential.sockets])
          registry.shut(conn, closeCodes.credentialsEnded, 'token expired');
      }
    }
    if (verifying) return;
    const due = [...registry.credentials.values()]
      .filter((c) => t - c.verifiedAt >= options.verifyEveryMs)
      .sort((a, b) => a.verifiedAt - b.verifiedAt)
      .slice(0, options.verifyBatch);
    if (!due.length) return;
    verifying = true;
    void verify(due, t).finally(() => {
      verifying = false;
    });
  }, options.expirySweepMs);
  sweepTimer.unref();

  async function verify(due: Credential[], t: number) {
    for (const credential of due) {
      let valid = true;
      try {
        valid = credential.tokenId
          ? await deps.isTokenStillValid(credential.tokenId)
          : credential.sessionSecret
            ? await deps.isSessionStillValid(credential.sessionSecret)
            : true;
      } catch {
        // The store is unreachable: keep the sockets; the next sweep asks again.
        continue;
      }
      credential.verifiedAt = t;
      if (!valid) {
        for (const conn of [...credential.sockets]) {
          stats.revoked++;
          registry.shut(conn, closeCodes.credentialsEnded, 'credentials no longer valid');
        }
      }
    }
  }

  return {
    revokeTokenHash,
    stop() {
      clearInterval(sweepTimer);
    },
  };
}
