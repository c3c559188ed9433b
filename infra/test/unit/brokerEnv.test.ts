import { describe, expect, it } from 'vitest';
import { ADMIN_KEY_PATTERN, PUSH_SECRET_KEY_PATTERN, SECRET_ENV, brokerEnv, dockerEnvList } from '../../src/brokerEnv.js';
import { BROKER_ENV_KEYS, REQUIRED_BROKER_ENV_KEYS, envSchema, schemaPattern } from '../helpers/brokerSchema.js';

const VALID_KEY = `mq_${'A'.repeat(43)}`;
const full = brokerEnv({
  dbPoolSize: 13,
  logLevel: 'info',
  corsAllowedOrigins: 'https://mq.example.com',
  commit: 'abc1234',
  dashboardUrl: 'https://mq.example.com',
  admins: 'alice,bob',
  publicViewer: false,
  github: { clientId: 'Iv1.123', callbackUrl: 'https://mq.example.com/api/v1/auth/github/callback' },
  pushSecretKey: true,
  pushAllowedNetworks: '10.20.0.0/16,fd00::/8',
});
const minimal = brokerEnv({ dbPoolSize: 10, logLevel: 'warn' });

describe('the broker environment against the broker config schema', () => {
  it('sets only variables the broker knows', () => {
    for (const env of [full, minimal]) {
      for (const name of [...Object.keys(env.plain), ...env.secret]) expect(BROKER_ENV_KEYS).toContain(name);
    }
    for (const name of SECRET_ENV) expect(BROKER_ENV_KEYS).toContain(name);
  });

  it('sets every variable the schema requires, plus the database and the admin key', () => {
    // Without DATABASE_URL the broker would start an embedded database inside the container.
    for (const env of [full, minimal]) {
      const set = [...Object.keys(env.plain), ...env.secret];
      for (const name of [...REQUIRED_BROKER_ENV_KEYS, 'DATABASE_URL', 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY']) expect(set).toContain(name);
    }
  });

  it('keeps credentials out of the plain values', () => {
    for (const env of [full, minimal]) {
      expect(env.secret).toEqual(expect.arrayContaining(['DATABASE_URL', 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY']));
      for (const name of SECRET_ENV) expect(env.plain).not.toHaveProperty(name);
    }
    expect(full.secret).toContain('GITHUB_CLIENT_SECRET');
    expect(minimal.secret).not.toContain('GITHUB_CLIENT_SECRET');
  });

  it('names the push secret key as a secret only when the stack has one, and passes the allowed networks plain', () => {
    expect(full.secret).toContain('MINIQUEUE_PUSH_SECRET_KEY');
    expect(full.plain.MINIQUEUE_PUSH_ALLOWED_NETWORKS).toBe('10.20.0.0/16,fd00::/8');
    expect(minimal.secret).not.toContain('MINIQUEUE_PUSH_SECRET_KEY');
    expect(minimal.plain).not.toHaveProperty('MINIQUEUE_PUSH_ALLOWED_NETWORKS');
  });

  it('passes the schema with the secrets filled in', () => {
    for (const env of [full, minimal]) {
      const secrets = {
        DATABASE_URL: 'postgres://miniqueue:pw@postgres:5432/miniqueue',
        MINIQUEUE_BOOTSTRAP_ADMIN_KEY: VALID_KEY,
        GITHUB_CLIENT_SECRET: 'shh',
        MINIQUEUE_PUSH_SECRET_KEY: 'B'.repeat(43),
      };
      const values = { ...env.plain, ...Object.fromEntries(env.secret.map((name) => [name, secrets[name]])) };
      const { error } = envSchema.validate(values, { abortEarly: false });
      expect(error?.message).toBeUndefined();
    }
  });

  it('checks the admin key with the same pattern as the broker', () => {
    expect(String(ADMIN_KEY_PATTERN)).toBe(schemaPattern('MINIQUEUE_BOOTSTRAP_ADMIN_KEY'));
  });

  it('checks the push secret key with the same pattern as the broker', () => {
    expect(String(PUSH_SECRET_KEY_PATTERN)).toBe(schemaPattern('MINIQUEUE_PUSH_SECRET_KEY'));
  });

  it('writes docker env entries in a stable order', () => {
    expect(dockerEnvList({ B: '2', A: '1' })).toEqual(['A=1', 'B=2']);
  });
});
