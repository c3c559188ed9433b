/**
 * The kubernetes stack against a managed PostgreSQL, with a fixed replica count and public
 * Services; plus the checks that stop a deploy before anything is created.
 */
import * as pulumi from '@pulumi/pulumi';
import { beforeAll, describe, expect, it } from 'vitest';
import { reveal, resource, runProgram, type ProgramRun } from './helpers/pulumiProgram.js';
import { SECRET_VALUES, expectNoPlainSecrets, expectOutputsFree, expectWrappedSecrets } from './helpers/secrets.js';
import { deployKubernetes } from '../src/kubernetes/index.js';
import { brokerResources, scaling } from '../src/sizing.js';
import type { Settings } from '../src/settings.js';

const SECRETS = [SECRET_VALUES.bootstrapAdminKey, SECRET_VALUES.grafanaAdminPassword, SECRET_VALUES.databaseUrl];

let run: ProgramRun;
beforeAll(async () => {
  run = await runProgram(
    'staging',
    {
      target: 'kubernetes',
      image: 'ghcr.io/acme/miniqueue@sha256:' + 'b'.repeat(64),
      replicas: '4',
      maxReplicas: '4',
      databaseMaxConnections: '200',
      serviceType: 'LoadBalancer',
      databaseUrl: SECRET_VALUES.databaseUrl,
      bootstrapAdminKey: SECRET_VALUES.bootstrapAdminKey,
      grafanaAdminPassword: SECRET_VALUES.grafanaAdminPassword,
    },
    ['databaseUrl', 'bootstrapAdminKey', 'grafanaAdminPassword'],
  );
});

describe('kubernetes stack with a managed database', () => {
  it('runs no PostgreSQL of its own', () => {
    expect(run.resources.filter((r) => r.name === 'postgres')).toEqual([]);
  });

  it('hands the managed connection string to the brokers as a secret only', () => {
    expectNoPlainSecrets(run, SECRETS);
    expectWrappedSecrets(run, SECRETS);
    expectOutputsFree(run, SECRETS);
    const data = reveal(resource(run, 'kubernetes:core/v1:Secret', 'miniqueue').inputs.stringData);
    expect(data.DATABASE_URL).toBe(SECRET_VALUES.databaseUrl);
    expect(Object.keys(data).sort()).toEqual(['DATABASE_URL', 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY']);
  });

  it('sets no push variable when the stack has no push config', () => {
    const env = resource(run, 'kubernetes:apps/v1:Deployment', 'miniqueue').inputs.spec.template.spec.containers[0].env as { name: string }[];
    expect(env.map((e) => e.name).filter((name) => name.startsWith('MINIQUEUE_PUSH_'))).toEqual([]);
  });

  it('keeps a fixed replica count without an autoscaler, still with a disruption budget', () => {
    const deployment = resource(run, 'kubernetes:apps/v1:Deployment', 'miniqueue').inputs;
    expect(deployment.spec.replicas).toBe(4);
    expect(run.resources.some((r) => r.type.includes('HorizontalPodAutoscaler'))).toBe(false);
    expect(resource(run, 'kubernetes:policy/v1:PodDisruptionBudget', 'miniqueue').inputs.spec.maxUnavailable).toBe(1);
    const env = deployment.spec.template.spec.containers[0].env as { name: string; value?: string }[];
    // four replicas on 200 connections: min(20, floor(190 / 4) - 2)
    expect(env.find((e) => e.name === 'MINIQUEUE_DB_POOL_SIZE')?.value).toBe('20');
  });

  it("reports the load balancers' addresses as the URLs", () => {
    expect(resource(run, 'kubernetes:core/v1:Service', 'miniqueue').inputs.spec.type).toBe('LoadBalancer');
    expect(run.outputs.brokerUrl).toBe('http://miniqueue.lb.example.net:8080');
    expect(run.outputs.grafanaUrl).toBe('http://grafana.lb.example.net:3000');
  });
});

describe('kubernetes stack: refused before anything is created', () => {
  const settings = (image?: string): Settings => ({
    stack: 's',
    target: 'kubernetes',
    image,
    bootstrapAdminKey: pulumi.output('k'),
    grafanaAdminPassword: pulumi.output('p'),
    database: { kind: 'external', url: pulumi.output('postgres://h/d') },
    databaseMaxConnections: 100,
    scaling: scaling(),
    resources: brokerResources(),
    broker: { logLevel: 'info' },
    kubernetes: { namespace: 'mq', serviceType: 'ClusterIP', prometheusStorageSize: '1Gi' },
    local: { brokerPort: 8080, prometheusPort: 9090, grafanaPort: 3000 },
  });

  it('without an image, or with one that would not roll out', () => {
    expect(() => deployKubernetes(settings())).toThrow(/miniqueue:image is required/);
    expect(() => deployKubernetes(settings('ghcr.io/acme/miniqueue:latest'))).toThrow(/:latest/);
  });
});
