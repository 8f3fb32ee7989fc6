import type { Credential, ConnectionRegistry } from './connections.ts';
import { periodicJob } from '../../../shared/periodic-job.ts';
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

  const expiry = periodicJob({
    name: 'push-credential-expiry',
    everyMs: options.expirySweepMs,
    run() {
      const t = now();
      for (const credential of registry.credentials.values()) {
        if (credential.expiresAt !== null && credential.expiresAt <= t) {
          for (const conn of [...credential.sockets])
            registry.shut(conn, closeCodes.credentialsEnded, 'token expired');
        }
      }
    },
  });
  // On the same period; a re-check still in flight skips the tick (expiry goes on meanwhile).
  const rechecks = periodicJob({
    name: 'push-credential-recheck',
    everyMs: options.expirySweepMs,
    run() {
      const t = now();
      const due = [...registry.credentials.values()]
        .filter((c) => t - c.verifiedAt >= options.verifyEveryMs)
        .sort((a, b) => a.verifiedAt - b.verifiedAt)
        .slice(0, options.verifyBatch);
      return due.length ? verify(due, t) : undefined;
    },
  });
  expiry.start();
  rechecks.start();

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
    async stop() {
      await Promise.all([expiry.stop(), rechecks.stop()]);
    },
  };
}
