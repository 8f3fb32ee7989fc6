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
