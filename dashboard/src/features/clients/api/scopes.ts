import { isValidScope } from '@miniqueue/sdk';

/** What the scope picker holds; `scopesOf` turns it into the broker's scope strings. */
export interface ScopeSelection {
  admin: boolean;
  view: boolean;
  metrics: boolean;
  publishAny: boolean;
  publish: string[];
  consumeAny: boolean;
  consume: string[];
  /** Typed by hand, e.g. publish:a-topic-not-created-yet. */
  extra: string[];
}

export const emptySelection = (): ScopeSelection => ({
  admin: false,
  view: false,
  metrics: false,
  publishAny: false,
  publish: [],
  consumeAny: false,
  consume: [],
  extra: [],
});

export const isScope = (value: string): boolean => isValidScope(value);

/**
 * The scopes to grant, without redundancy: admin already allows everything, and a wildcard
 * already covers every single topic or queue.
 */
export function scopesOf(selection: ScopeSelection): string[] {
  if (selection.admin) return ['admin'];
  const scopes = new Set<string>();
  if (selection.view) scopes.add('view');
  if (selection.metrics) scopes.add('metrics');
  if (selection.publishAny) scopes.add('publish:*');
  else selection.publish.forEach((topic) => scopes.add(`publish:${topic}`));
  if (selection.consumeAny) scopes.add('consume:*');
  else selection.consume.forEach((queue) => scopes.add(`consume:${queue}`));
  for (const scope of selection.extra) {
    if (scope.startsWith('publish:') && selection.publishAny) continue;
    if (scope.startsWith('consume:') && selection.consumeAny) continue;
    scopes.add(scope.toLowerCase());
  }
  return [...scopes];
}
