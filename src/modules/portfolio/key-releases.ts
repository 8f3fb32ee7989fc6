/**
 * Idempotency claims to give up whose release failed. A request that fails without effect (a 503: storage
 * unreachable) releases its key so the client's retry can run it; when that release fails too (storage still
 * down), the claim would stay `running` until it is stale (60 s) and every retry meanwhile would get 409.
 * Instead the claim is remembered here and released at the next occasion: before this process claims the
 * same key again (a retry reaching the same replica runs at once), and in the background every `retryMs`
 * (a retry reaching another replica runs once storage is back and the release came through). A claim is
 * forgotten once it is stale, since any request takes it over then.
 *
 * A release names the claim by the time it was made (`claimedAt`), so a late one never removes the claim of
 * a request that took the key over since.
 */
export interface KeyReleasesOptions {
  release(accountId: string, key: string, claimedAt: number): Promise<void>;
  now(): number;
  /** A claim older than this is taken over by any request: no need to release it any more. */
  staleMs: number;
  /** Background retry period while releases are pending. */
  retryMs?: number;
  log?: (message: string, fields: Record<string, unknown>) => void;
}

interface Pending {
  accountId: string;
  key: string;
  claimedAt: number;
}

export function createKeyReleases(options: KeyReleasesOptions) {
  const retryMs = options.retryMs ?? 1_000;
  const pending = new Map<string, Pending>();
  let timer: NodeJS.Timeout | undefined;
  const idOf = (accountId: string, key: string) => `${accountId}\u0000${key}`;

  /** Tries one release; true when it came through (or is no longer needed). */
  async function attempt(claim: Pending): Promise<boolean> {
    if (claim.claimedAt <= options.now() - options.staleMs) return true;
    try {
      await options.release(claim.accountId, claim.key, claim.claimedAt);
      return true;
    } catch (error) {
      options.log?.('portfolio: could not release an idempotency key; retrying', {
        error: (error as Error).message,
      });
      return false;
    }
  }

  function schedule(): void {
    if (timer || pending.size === 0) return;
    timer = setTimeout(() => {
      timer = undefined;
      void retryAll().finally(schedule);
    }, retryMs);
    timer.unref?.();
  }

  async function retryAll(): Promise<void> {
    for (const [id, claim] of [...pending]) {
      if (pending.get(id) !== claim) continue;
      if (await attempt(claim)) pending.delete(id);
    }
  }

  return {
    /** Gives up a claim of a request that failed without effect; kept for a later attempt when that fails. */
    async release(accountId: string, key: string, claimedAt: number): Promise<void> {
      const claim = { accountId, key, claimedAt };
      const id = idOf(accountId, key);
      if (await attempt(claim)) {
        if (pending.get(id) === claim) pending.delete(id);
        return;
      }
      pending.set(id, claim);
      schedule();
    },
    /** Before claiming a key: a release of it still pending is attempted first. */
    async settle(accountId: string, key: string): Promise<void> {
      const id = idOf(accountId, key);
      const claim = pending.get(id);
      if (claim && (await attempt(claim)) && pending.get(id) === claim) pending.delete(id);
    },
    /** Claims still waiting for their release (tests, diagnostics). */
    pendingCount: () => pending.size,
  };
}
