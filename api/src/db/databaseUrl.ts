/**
 * DATABASE_URL in libpq's multi-host form, which node-postgres does not read (pg-connection-string
 * hands the whole authority to `new URL()`, which refuses `h1:5432,h2:5432`):
 *
 *   postgresql://user:secret@h1:5432,h2:5432/db?target_session_attrs=read-write
 *
 * is taken apart here into its hosts and the session it asks for, and put back together as a
 * one-host URL that pg can parse; which host a connection goes to is decided per connection
 * (db/hostLocator.ts). A URL with one host and no target_session_attrs is left exactly as it is.
 */

export interface HostAndPort {
  host: string;
  port: number;
}

/**
 * What a connection must find at the other end. libpq's `any`, `read-only` and `standby` are not
 * here: every broker connection writes (or listens for what writers notify), so a multi-host URL
 * always looks for a writable server; `prefer-standby` only changes where the dashboard reads.
 */
export type SessionAttrs = 'read-write' | 'primary' | 'prefer-standby';

export interface DatabaseTarget {
  /** Empty for a plain one-host URL. */
  hosts: HostAndPort[];
  /** Absent for a plain one-host URL: connections go there unchecked, as they always did. */
  sessionAttrs?: SessionAttrs;
  /** The URL with the first host only and without target_session_attrs: what pg is given. */
  singleHostUrl: string;
}

export class DatabaseUrlError extends Error {}

const DEFAULT_PORT = 5432;
const ACCEPTED: Record<string, SessionAttrs> = { 'read-write': 'read-write', any: 'read-write', primary: 'primary', 'prefer-standby': 'prefer-standby' };
const REFUSED = new Set(['read-only', 'standby']);
const URL_SHAPE = /^(postgres(?:ql)?:\/\/)(?:([^@/?#]*)@)?([^/?#]*)(.*)$/i;

export function parseDatabaseUrl(url: string): DatabaseTarget {
  const shape = URL_SHAPE.exec(url);
  if (!shape) throw new DatabaseUrlError('must be a postgres:// or postgresql:// URL');
  const [, scheme, userinfo, authority, rest] = shape;
  const { query, attrs } = takeSessionAttrs(rest);
  // One host and nothing asked of it: pg reads it as it always did (sockets, ?host= and all).
  if (!authority.includes(',') && !attrs) return { hosts: [], singleHostUrl: url };
  const hosts = authority.split(',').map(parseHost);
  return {
    hosts,
    sessionAttrs: attrs ?? 'read-write',
    singleHostUrl: `${scheme}${userinfo !== undefined ? `${userinfo}@` : ''}${authority.split(',')[0]}${query}`,
  };
}

function parseHost(spec: string): HostAndPort {
  const match = /^(\[[0-9A-Fa-f:.]+\]|[^:[\]]+)(?::(\d{1,5}))?$/.exec(spec.trim());
  if (!match) throw new DatabaseUrlError(spec.trim() === '' ? 'has an empty host in its host list' : 'has a host list entry that is not host[:port]');
  const port = match[2] === undefined ? DEFAULT_PORT : Number(match[2]);
  if (port < 1 || port > 65535) throw new DatabaseUrlError(`has a port out of range: ${match[2]}`);
  return { host: match[1].replace(/^\[(.+)\]$/, '$1'), port };
}

/** Removes target_session_attrs from the path-and-query part (pg would pass it on as nothing). */
function takeSessionAttrs(rest: string): { query: string; attrs?: SessionAttrs } {
  const at = rest.indexOf('?');
  if (at < 0) return { query: rest };
  const params = new URLSearchParams(rest.slice(at + 1));
  const value = params.get('target_session_attrs');
  if (value === null) return { query: rest };
  params.delete('target_session_attrs');
  const left = params.toString();
  return { query: rest.slice(0, at) + (left ? `?${left}` : ''), attrs: sessionAttrsOf(value) };
}

function sessionAttrsOf(value: string): SessionAttrs {
  if (REFUSED.has(value)) {
    throw new DatabaseUrlError(`asks for target_session_attrs=${value}, which cannot take the broker's writes; use read-write, primary or prefer-standby`);
  }
  const attrs = ACCEPTED[value];
  if (!attrs) throw new DatabaseUrlError(`has an unknown target_session_attrs=${value}; use read-write, primary or prefer-standby`);
  return attrs;
}
