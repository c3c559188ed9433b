import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { parseDatabaseUrl } from '../../src/db/databaseUrl.js';

const refusal = (url: string) => {
  try {
    loadConfig({ DATABASE_URL: url });
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('DATABASE_URL with several hosts', () => {
  it("takes libpq's multi-host form apart into hosts, the session asked for, and a URL pg can read", () => {
    expect(parseDatabaseUrl('postgresql://u:s%40cret@db-a:5433,[::1],db-c/app?sslmode=disable&target_session_attrs=primary')).toEqual({
      hosts: [
        { host: 'db-a', port: 5433 },
        { host: '::1', port: 5432 },
        { host: 'db-c', port: 5432 },
      ],
      sessionAttrs: 'primary',
      singleHostUrl: 'postgresql://u:s%40cret@db-a:5433/app?sslmode=disable',
    });
  });

  it('looks for a writable server when several hosts are named without target_session_attrs, or with any', () => {
    expect(parseDatabaseUrl('postgres://u@a,b/db').sessionAttrs).toBe('read-write');
    expect(parseDatabaseUrl('postgres://u@a,b/db?target_session_attrs=any').sessionAttrs).toBe('read-write');
    expect(parseDatabaseUrl('postgres://u@a,b/db?target_session_attrs=prefer-standby').sessionAttrs).toBe('prefer-standby');
  });

  it('leaves a one-host URL exactly as it was', () => {
    const url = 'postgres://u:p@localhost:5432/db?application_name=x';
    expect(parseDatabaseUrl(url)).toEqual({ hosts: [], singleHostUrl: url });
    expect(loadConfig({ DATABASE_URL: url }).databaseUrl).toBe(url);
  });

  it('stops the broker at start on a bad URL, naming the setting and never echoing the password', () => {
    expect(refusal('postgresql://u:hunter2@a,b/db?target_session_attrs=sometimes')).toMatch(/"DATABASE_URL" has an unknown target_session_attrs=sometimes/);
    expect(refusal('postgresql://u:hunter2@a,,b/db')).toMatch(/"DATABASE_URL" has an empty host in its host list/);
    expect(refusal('postgresql://u:hunter2@/db?target_session_attrs=read-write')).toMatch(/"DATABASE_URL" has an empty host/);
    expect(refusal('postgresql://u:hunter2@a,b/db?target_session_attrs=standby')).toMatch(
      /"DATABASE_URL" asks for target_session_attrs=standby, which cannot take the broker's writes/,
    );
    expect(refusal('postgresql://u:hunter2@a:99999,b/db')).toMatch(/"DATABASE_URL" has a port out of range/);
    expect(refusal('mysql://u:hunter2@a/db')).toMatch(/"DATABASE_URL" must be a postgres/);
    for (const url of ['postgresql://u:hunter2@a,,b/db', 'postgresql://u:hunter2@a,b/db?target_session_attrs=x']) expect(refusal(url)).not.toContain('hunter2');
  });
});
