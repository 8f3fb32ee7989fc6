import { parseArgs } from 'node:util';
import type { AccountsService } from '../modules/accounts/index.ts';
import type { OAuthService } from '../modules/oauth/index.ts';
import type { AuditEntry, AuditLog } from '../modules/audit/index.ts';
import type { Clock } from '../shared/clock.ts';
import { parseDuration } from '../modules/identifiers/index.ts';
import { isAppError } from '../shared/errors.ts';

/** What an operator command printed and how it ended. Secrets go to `out` only, never to a log. */
export interface CommandResult {
  code: number;
  out: string[];
  err: string[];
}

export interface OperatorDeps {
  accounts: AccountsService;
  oauth: Pick<OAuthService, 'registerClient' | 'listAllClients' | 'deleteClient'>;
  clock: Clock;
  /** Account changes made here are audited as the operator's (no user, no address). */
  audit: AuditLog;
}

export const operatorUsage = `Commands that change accounts:
  users create --email E --role viewer|member|admin [--password P] [--plan standard|pro]
  users set-plan --email E --plan standard|pro [--rate-limit N]
  users set-role --email E --role viewer|member|admin
  orgs set-plan --id ORG --plan standard|pro [--rate-limit N]
  tokens create --email E --name N [--expires-in 30d] [--permissions a:read,b:write]
  tokens revoke --id ID
  oauth clients add --name N --redirect-uri URI [--redirect-uri URI ...] [--confidential]
  oauth clients list
  oauth clients delete --id ID`;

/**
 * The account commands of the CLI. The same function runs in the CLI's own process (server stopped, or
 * PostgreSQL) and inside the running server when the CLI hands the work over its local socket (PGlite
 * allows one process per data folder), so both paths behave identically.
 */
export async function runOperatorCommand(deps: OperatorDeps, argv: string[]): Promise<CommandResult> {
  const out: string[] = [];
  const err: string[] = [];
  const [group, ...more] = argv;
  // `oauth clients add`: three words name the command.
  const words = group === 'oauth' ? 2 : 1;
  const action = more.slice(0, words).join(' ');
  const rest = more.slice(words);
  const audited = (entry: Pick<AuditEntry, 'action' | 'target' | 'detail'>) =>
    deps.audit.record({ ...entry, outcome: 'success', actorId: null, credential: 'operator', address: null });
  try {
    const { values } = parseArgs({
      args: rest,
      options: {
        email: { type: 'string' },
        role: { type: 'string' },
        password: { type: 'string' },
        plan: { type: 'string' },
        'rate-limit': { type: 'string' },
        name: { type: 'string' },
        'expires-in': { type: 'string' },
        permissions: { type: 'string' },
        id: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        confidential: { type: 'boolean' },
      },
      strict: true,
    });
    const need = (key: keyof typeof values) => {
      const value = values[key];
      if (typeof value !== 'string' || !value) throw new UsageError(`--${key} is required`);
      return value;
    };
    const command = `${group ?? ''} ${action}`;
    switch (command) {
      case 'users create': {
        const { user, generatedPassword } = await deps.accounts.createUser({
          email: need('email'),
          role: need('role'),
          password: values.password,
          plan: values.plan,
        });
        await audited({ action: 'user.create', target: `user:${user.id}`, detail: { role: user.role } });
        out.push(`created user ${user.id} ${user.email} (${user.role}, ${user.plan})`);
        if (generatedPassword) out.push(`password: ${generatedPassword}`);
        break;
      }
      case 'users set-plan': {
        const raw = values['rate-limit'];
        const rateLimit = raw === undefined ? undefined : Number(raw);
        if (raw !== undefined && (!Number.isInteger(rateLimit) || rateLimit! < 1))
          throw new UsageError('--rate-limit must be a positive integer');
        const user = await deps.accounts.setPlan(need('email'), need('plan'), rateLimit);
        await audited({
          action: 'user.plan_change',
          target: `user:${user.id}`,
          detail: { plan: user.plan, rateLimit: user.rate_limit_override },
        });
        out.push(
          `${user.email}: plan ${user.plan}${user.rate_limit_override ? `, rate limit ${user.rate_limit_override}/min` : ''}`,
        );
        break;
      }
      case 'orgs set-plan': {
        const raw = values['rate-limit'];
        const rateLimit = raw === undefined ? undefined : Number(raw);
        if (raw !== undefined && (!Number.isInteger(rateLimit) || rateLimit! < 1))
          throw new UsageError('--rate-limit must be a positive integer');
        const org = await deps.accounts.organizations.setPlan(need('id'), need('plan'), rateLimit);
        await audited({
          action: 'organization.plan_change',
          target: `organization:${org.id}`,
          detail: { plan: org.plan, rateLimit: org.rate_limit_override },
        });
        out.push(
          `${org.id} (${org.name}): plan ${org.plan}${org.rate_limit_override ? `, rate limit ${org.rate_limit_override}/min` : ''}`,
        );
        break;
      }
      case 'users set-role': {
        const user = await deps.accounts.setRole(need('email'), need('role'));
        await audited({ action: 'user.role_change', target: `user:${user.id}`, detail: { role: user.role } });
        out.push(`${user.email}: role ${user.role}`);
        break;
      }
      case 'tokens create': {
        const user = await deps.accounts.findUserByEmail(need('email'));
        if (!user) throw new UsageError(`no user with email ${values.email}`);
        let expiresAt: number | null = null;
        if (values['expires-in']) {
          const ms = parseDuration(values['expires-in']);
          if (!ms) throw new UsageError('--expires-in must look like 30d, 12h or 2w');
          expiresAt = deps.clock.now() + ms;
        }
        const created = await deps.accounts.createToken(user.id, {
          name: need('name'),
          expiresAt,
          permissions: values.permissions ? values.permissions.split(',').map((p) => p.trim()) : null,
        });
        await audited({
          action: 'token.create',
          target: `token:${created.view.id}`,
          detail: { name: created.view.name },
        });
        err.push(
          `created token ${created.view.id} "${created.view.name}" for ${user.email}` +
            (created.view.expiresAt ? `, expires ${created.view.expiresAt}` : '') +
            ' — the secret below is shown once',
        );
        out.push(created.token);
        break;
      }
      case 'tokens revoke': {
        const view = await deps.accounts.revokeToken(null, need('id'));
        await audited({ action: 'token.revoke', target: `token:${view.id}` });
        out.push(`token ${view.id} is ${view.status}`);
        break;
      }
      case 'oauth clients add': {
        const { client, secret } = await deps.oauth.registerClient(null, {
          name: need('name'),
          redirectUris: values['redirect-uri'] ?? [],
          confidential: values.confidential ?? false,
        });
        err.push(
          `registered ${client.type} OAuth client "${client.name}" — redirect URIs: ${client.redirectUris.join(' ')}` +
            (secret ? '; the client id and secret below are shown once' : '; the client id is below'),
        );
        out.push(client.id);
        if (secret) out.push(secret);
        break;
      }
      case 'oauth clients list': {
        for (const client of await deps.oauth.listAllClients())
          out.push(
            `${client.id}\t${client.type}\t${client.registeredBy}\t${client.name}\t${client.redirectUris.join(' ')}`,
          );
        break;
      }
      case 'oauth clients delete': {
        await deps.oauth.deleteClient(null, need('id'));
        out.push(`deleted OAuth client ${values.id}; every token issued to it is revoked`);
        break;
      }
      default:
        throw new UsageError(`unknown command "${command.trim()}"\n${operatorUsage}`);
    }
    return { code: 0, out, err };
  } catch (error) {
    if (error instanceof UsageError) return { code: 2, out, err: [...err, error.message] };
    if (isAppError(error)) return { code: 1, out, err: [...err, `error: ${error.message}`] };
    if (error instanceof TypeError && 'code' in error && String(error.code).startsWith('ERR_PARSE_ARGS')) {
      return { code: 2, out, err: [...err, error.message] };
    }
    throw error;
  }
}

class UsageError extends Error {}
