export {
  createAccountsService,
  type AccountsService,
  type AccountView,
  type TokenView,
  type PlanLimits,
} from './service.ts';
export { kyselyAccountsRepository, type AccountsRepository } from './repository.ts';
export { argon2idHasher, type PasswordHasher } from './password.ts';
export type { Principal } from './principal.ts';
export * from './permissions.ts';
export { isWellFormedToken, generateToken, hashToken, tokenPrefix } from './token-format.ts';
export { type AccountsTopics, accountsTopicDecoders, type CredentialsChanged } from './topics.ts';
