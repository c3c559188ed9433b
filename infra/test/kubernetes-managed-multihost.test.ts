/**
 * A managed PostgreSQL reached through a multi-host URL (libpq's form, as Patroni or a cloud's HA
 * endpoints give it): the stack runs no database and hands the URL to the brokers unchanged.
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '@miniqueue/api/config';
import { reveal, resource, runProgram, type ProgramRun } from './helpers/pulumiProgram.js';
import { SECRET_VALUES, expectNoPlainSecrets } from './helpers/secrets.js';

const MULTI_HOST_URL =
  'postgresql://mq:managed-ha-password-19c2@db-a.example.net:5432,db-b.example.net:5432/mq?sslmode=require&target_session_attrs=read-write';

let run: ProgramRun;
beforeAll(async () => {
  run = await runProgram(
    'ha',
    {
      target: 'kubernetes',
      image: 'ghcr.io/acme/miniqueue:1.2.3',
      databaseUrl: MULTI_HOST_URL,
      bootstrapAdminKey: SECRET_VALUES.bootstrapAdminKey,
      grafanaAdminPassword: SECRET_VALUES.grafanaAdminPassword,
    },
    ['databaseUrl', 'bootstrapAdminKey', 'grafanaAdminPassword'],
  );
});

describe('kubernetes stack with a managed multi-host database', () => {
  it('runs neither the operator nor a PostgreSQL of its own', () => {
    expect(run.resources.filter((r) => r.name === 'postgres' || r.name === 'cloudnative-pg')).toEqual([]);
  });

  it('passes the multi-host URL to the brokers as it is, as a secret, and the broker accepts it', () => {
    expectNoPlainSecrets(run, [MULTI_HOST_URL]);
    const data = reveal(resource(run, 'kubernetes:core/v1:Secret', 'miniqueue').inputs.stringData);
    expect(data.DATABASE_URL).toBe(MULTI_HOST_URL);
    expect(loadConfig({ DATABASE_URL: data.DATABASE_URL }).databaseUrl).toBe(MULTI_HOST_URL);
  });
});
