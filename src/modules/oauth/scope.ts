import { type Permission, isPermission } from '../accounts/index.ts';

/**
 * Scopes are the API token permissions, space-separated (RFC 6749 §3.3): `market:read predictions:read`.
 * Answers the distinct permissions, or the names that are not permissions.
 */
export function parseScope(text: string): { scopes: Permission[] } | { unknown: string[] } {
  const names = [...new Set(text.split(' ').filter(Boolean))];
  const unknown = names.filter((name) => !isPermission(name));
  return unknown.length ? { unknown } : { scopes: names as Permission[] };
}

export const formatScope = (scopes: readonly string[]): string => scopes.join(' ');
