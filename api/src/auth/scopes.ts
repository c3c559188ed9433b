import type { Principal } from './principal.js';

/** As http/schemas.ts `name`: `.` and `..` cannot be addressed, so no scope names them. */
const NAME = '(?!\\.\\.?$)[a-z0-9._-]{1,100}';
const SCOPE = new RegExp(`^(admin|view|metrics|publish:(\\*|${NAME})|consume:(\\*|${NAME}))$`);

/** Scopes are lowercased like names; returns null for a scope the broker does not know. */
export function normalizeScope(scope: string): string | null {
  const lowered = scope.trim().toLowerCase();
  return SCOPE.test(lowered) ? lowered : null;
}

export function hasScope(principal: Pick<Principal, 'scopes'>, required: string): boolean {
  const { scopes } = principal;
  if (scopes.includes('admin') || scopes.includes(required)) return true;
  const [kind] = required.split(':');
  return (kind === 'publish' || kind === 'consume') && scopes.includes(`${kind}:*`);
}

/** The queues a principal may consume from; null means every queue. */
export function consumableQueues(principal: Pick<Principal, 'scopes'>): string[] | null {
  if (principal.scopes.includes('admin') || principal.scopes.includes('consume:*')) return null;
  return principal.scopes.filter((scope) => scope.startsWith('consume:')).map((scope) => scope.slice('consume:'.length));
}
