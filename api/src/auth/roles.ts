import type { Config } from '../config.js';

/**
 * What a GitHub login may do, decided from the configuration each time it is asked (at sign-in and
 * on every request of a session), so a change to MINIQUEUE_ADMINS applies to live sessions at once.
 * null: this person may not use the dashboard at all.
 */
export function scopesForLogin(config: Pick<Config, 'admins' | 'publicViewer'>, login: string): string[] | null {
  if (config.admins.includes(login.toLowerCase())) return ['admin'];
  return config.publicViewer ? ['view'] : null;
}
