import { duplicateKey, missingUser } from './constraint-violation.ts';
import { createMemoryOrganizationsStore } from './organizations.memory.ts';
import type { AccountsRepository } from './repository.ts';
import type { ApiToken, SessionsTable, UserIdentitiesTable, UsersTable } from './tables.ts';
import { createMemoryTokensStore } from './tokens.memory.ts';

/**
 * In-memory twin of the accounts store: the tables' keys, unique and foreign keys; reads return copies. Users,
 * sessions and identities here; tokens and organizations in tokens.memory.ts and organizations.memory.ts.
 */
export function createMemoryAccountsRepository(): AccountsRepository {
  const users = new Map<string, UsersTable>();
  const tokens = new Map<string, ApiToken>();
  const sessions = new Map<string, SessionsTable>();
  const identities = new Map<string, UserIdentitiesTable>();
  const identityKey = (issuer: string, subject: string) => JSON.stringify([issuer, subject]);
  const orgs = createMemoryOrganizationsStore(users, tokens);
  const addPersonal = (user: UsersTable) => orgs.addPersonal(user);
  const checkUser = (user: UsersTable) => {
    if (users.has(user.id)) throw duplicateKey('users_pkey');
    if (userWithEmail(user.email)) throw duplicateKey('users_email_key');
  };
  const checkIdentity = (identity: UserIdentitiesTable) => {
    if (identities.has(identityKey(identity.issuer, identity.subject)))
      throw duplicateKey('user_identities_pk');
    for (const other of identities.values())
      if (other.issuer === identity.issuer && other.user_id === identity.user_id)
        throw duplicateKey('user_identities_issuer_user_key');
  };

  const userWithEmail = (email: string) => [...users.values()].find((u) => u.email === email);
  const copy = <T>(row: T | undefined): T | undefined =>
    row === undefined ? undefined : structuredClone(row);

  return {
    async countUsers() {
      return users.size;
    },
    ...orgs.store,
    ...createMemoryTokensStore(users, tokens, orgs.store.findMembership),
    async insertUser(user) {
      checkUser(user);
      users.set(user.id, structuredClone(user));
      addPersonal(user);
    },
    async findUserByEmail(email) {
      return copy(userWithEmail(email));
    },
    async findUserById(id) {
      return copy(users.get(id));
    },
    async updateUser(id, patch) {
      const user = users.get(id);
      if (!user) return;
      // Like Kysely's `set`, a key given as undefined is left out of the update.
      for (const [column, value] of Object.entries(patch))
        if (value !== undefined) Object.assign(user, { [column]: value });
      const { plan, rate_limit_override } = patch;
      await orgs.store.updateOrganization(id, { plan, rate_limit_override });
    },
    async insertSession(session) {
      if (sessions.has(session.id_hash)) throw duplicateKey('sessions_pkey');
      if (!users.has(session.user_id)) throw missingUser('sessions');
      sessions.set(session.id_hash, structuredClone(session));
    },
    async findSession(idHash) {
      const session = sessions.get(idHash);
      const user = session && users.get(session.user_id);
      return session && user ? { user: structuredClone(user), expires_at: session.expires_at } : undefined;
    },
    async deleteSession(idHash) {
      sessions.delete(idHash);
    },
    async pruneSessions(userId, now, keep) {
      const mine = [...sessions.values()]
        .filter((s) => s.user_id === userId)
        .sort((a, b) => b.created_at - a.created_at || (a.id_hash < b.id_hash ? 1 : -1));
      let kept = 0;
      for (const s of mine) {
        if (s.expires_at <= now || kept >= keep) sessions.delete(s.id_hash);
        else kept++;
      }
    },
    async findUserByIdentity(issuer, subject) {
      const identity = identities.get(identityKey(issuer, subject));
      return copy(identity && users.get(identity.user_id));
    },
    async insertIdentity(identity) {
      checkIdentity(identity);
      if (!users.has(identity.user_id)) throw missingUser('user_identities');
      identities.set(identityKey(identity.issuer, identity.subject), structuredClone(identity));
    },
    async insertUserWithIdentity(user, identity) {
      checkUser(user);
      checkIdentity(identity);
      users.set(user.id, structuredClone(user));
      addPersonal(user);
      identities.set(identityKey(identity.issuer, identity.subject), structuredClone(identity));
    },
    async touchIdentity(issuer, subject, email, at) {
      const identity = identities.get(identityKey(issuer, subject));
      if (identity) Object.assign(identity, { email, last_sign_in_at: at });
    },
  };
}
