import type { ConfigFile } from './configStore.js';
import { EXIT, Failure } from './failure.js';

export const DEFAULT_URL = 'http://localhost:8080';

export interface ConnectionFlags {
  url?: string;
  'api-key'?: string;
  profile?: string;
}

/** Where the key came from, to say which key was refused. */
export type KeySource = 'flag' | 'profile' | 'prompt' | 'none';

export interface Connection {
  url: string;
  apiKey?: string;
  /** The profile the settings came from, if any. */
  profile?: string;
  keySource: KeySource;
}

/**
 * Flags (and their environment variables) win over the saved profile. A profile's key is only
 * used for that profile's own URL: a key saved for one broker is never sent to another.
 */
export function resolveConnection(flags: ConnectionFlags, config: ConfigFile): Connection {
  const profileName = flags.profile ?? config.current;
  const profile = profileName ? config.profiles[profileName] : undefined;
  if (flags.profile && !profile) {
    const saved = Object.keys(config.profiles);
    const hint = saved.length > 0 ? `Saved profiles: ${saved.join(', ')}.` : 'Save one with `miniqueue login`.';
    throw new Failure(`No saved profile named ${flags.profile}`, hint, EXIT.usage);
  }
  const url = normalizeUrl(flags.url ?? profile?.url ?? DEFAULT_URL);
  const base = { url, profile: profile ? profileName : undefined };
  if (flags['api-key']) return { ...base, apiKey: flags['api-key'], keySource: 'flag' };
  if (profile && normalizeUrl(profile.url) === url) return { ...base, apiKey: profile.apiKey, keySource: 'profile' };
  return { ...base, keySource: 'none' };
}

export function normalizeUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Failure(`Not a URL: ${raw}`, 'Give the broker address like http://localhost:8080.', EXIT.usage);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Failure(`Not an http(s) URL: ${raw}`, 'Give the broker address like http://localhost:8080.', EXIT.usage);
  }
  return url.toString().replace(/\/+$/, '');
}
