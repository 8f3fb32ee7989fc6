export { createAccountsService, type AccountsService } from './service.ts';
export type { AccountView, TokenView } from './present.ts';
export type { PlanLimits, Principal } from './principal.ts';
export { accountLimitKey } from './principal.ts';
export type { AccountsRepository, TwoFactorRepository } from './repository.ts';
export { createKyselyAccountsRepository } from './repository.kysely.ts';
export { createMemoryAccountsRepository } from './repository.memory.ts';
export { createKyselyTwoFactorRepository } from './two-factor.kysely.ts';
export { createMemoryTwoFactorRepository } from './two-factor.memory.ts';
export type { SecretSealer } from './ports.ts';
export type { CodeKind } from './two-factor.ts';
export type { SignInResult } from './sign-in.ts';
export { createArgon2idHasher, type PasswordHasher, passwordWork } from './password.ts';
export { createSignInGate, type SignInGate } from './sign-in-gate.ts';
export * from './permissions.ts';
export {
  candidateTokenHash,
  isWellFormedToken,
  generateToken,
  hashToken,
  tokenPrefix,
} from './token-format.ts';
export { type AccountsTopics, accountsTopicDecoders, type CredentialsChanged } from './topics.ts';
export type { ExternalIdentity, SsoAvailability, SsoChallenge, SsoProvider } from './ports.ts';
export { SSO_REFUSALS, type SsoPolicy, SsoRefusal, type SsoRefusalReason } from './sso.ts';
