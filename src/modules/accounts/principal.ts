import type { Permission, Plan, Role } from './permissions.ts';

/** Who is calling: resolved once per request by the auth plugin, from an API token or a console session. */
export interface Principal {
  kind: 'token' | 'session';
  userId: string;
  email: string;
  role: Role;
  plan: Plan;
  /** Requests per 60-second window for this account (plan or per-account override). */
  rateLimit: number;
  /** Concurrent push-channel connections allowed for this account. */
  wsConnections: number;
  permissions: ReadonlySet<Permission>;
  tokenId?: string;
  /**
   * The stored hash of the credential that resolved this principal (the token's hash, or the session id's),
   * so that code closing what a revoked credential opened needs no second hash of the secret.
   */
  credentialHash?: string;
  tokenExpiresAt?: number | null;
  /** When the account was created (ms). */
  createdAt: number;
}
