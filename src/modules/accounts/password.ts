import pLimit from 'p-limit';
import { AppError } from '../../shared/errors.ts';

/** Password hashing port: argon2id in production; tests may pass a cheaper twin. */
export interface PasswordHasher {
  hash(password: string): Promise<string>;
  verify(hash: string, password: string): Promise<boolean>;
}

/** argon2id with OWASP's recommended minimum (19 MiB, 2 passes, 1 lane). */
export async function createArgon2idHasher(): Promise<PasswordHasher> {
  const argon2 = await import('@node-rs/argon2');
  const options = { algorithm: 2 /* Argon2id */, memoryCost: 19_456, timeCost: 2, parallelism: 1 } as const;
  return {
    hash: (password) => argon2.hash(password, options),
    verify: async (hash, password) => {
      try {
        return await argon2.verify(hash, password);
      } catch {
        return false;
      }
    },
  };
}

export const minPasswordLength = 10;

/**
 * How much password hashing one process does at once: argon2id at these settings is tens of milliseconds of
 * CPU and 19 MiB each. At most `concurrency` run at a time, the rest wait in order; past `maxQueued` waiting,
 * a check is refused at once (503, Retry-After: 1) rather than left to wait behind a flood.
 */
export const passwordWork = { concurrency: 2, maxQueued: 64 } as const;

/** The hasher with its work bounded (see `passwordWork`): every hash and check of the process goes through it. */
export function boundedHasher(
  hasher: PasswordHasher,
  bounds: { concurrency: number; maxQueued: number } = passwordWork,
): PasswordHasher {
  const limit = pLimit(bounds.concurrency);
  const run = <T>(task: () => Promise<T>): Promise<T> => {
    if (limit.pendingCount >= bounds.maxQueued)
      return Promise.reject(
        new AppError('unavailable', 'too many passwords are being checked right now; retry in a second', {
          headers: { 'retry-after': '1' },
        }),
      );
    return limit(task);
  };
  return {
    hash: (password) => run(() => hasher.hash(password)),
    verify: (hash, password) => run(() => hasher.verify(hash, password)),
  };
}
