import type { OAuthClient, OAuthGrant } from './tables.ts';

/** A registered client as listed: never its secret. */
export interface OAuthClientView {
  id: string;
  name: string;
  type: 'public' | 'confidential';
  redirectUris: string[];
  /** `operator` for a client registered with the CLI, `account` for one registered in the console. */
  registeredBy: 'operator' | 'account';
  createdAt: string;
}

/** An app the account has authorized, as the account sees it. */
export interface OAuthGrantView {
  id: string;
  client: { id: string; name: string };
  scopes: string[];
  createdAt: string;
}

export function presentClient(client: OAuthClient): OAuthClientView {
  return {
    id: client.id,
    name: client.name,
    type: client.secret_hash === null ? 'public' : 'confidential',
    redirectUris: [...client.redirect_uris],
    registeredBy: client.owner_id === null ? 'operator' : 'account',
    createdAt: new Date(client.created_at).toISOString(),
  };
}

export function presentGrant(grant: OAuthGrant & { client_name: string }): OAuthGrantView {
  return {
    id: grant.id,
    client: { id: grant.client_id, name: grant.client_name },
    scopes: [...grant.scopes],
    createdAt: new Date(grant.created_at).toISOString(),
  };
}
