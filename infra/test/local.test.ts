/**
 * The local stack (the Docker engine of this machine), under Pulumi's mocks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { reveal, resource, runProgram, strings, type ProgramRun } from './helpers/pulumiProgram.js';
import { BROKER_ENV_KEYS } from './helpers/brokerSchema.js';
import { SECRET_VALUES, expectNoPlainSecrets, expectOutputsFree, expectWrappedSecrets } from './helpers/secrets.js';

const SECRETS = [SECRET_VALUES.bootstrapAdminKey, SECRET_VALUES.postgresPassword, SECRET_VALUES.grafanaAdminPassword, SECRET_VALUES.pushSecretKey];
const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));
const repoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

let run: ProgramRun;
beforeAll(async () => {
  run = await runProgram(
    'dev',
    {
      target: 'local',
      brokerPort: '18080',
      grafanaPort: '13000',
      logLevel: 'debug',
      bootstrapAdminKey: SECRET_VALUES.bootstrapAdminKey,
      postgresPassword: SECRET_VALUES.postgresPassword,
      grafanaAdminPassword: SECRET_VALUES.grafanaAdminPassword,
      pushSecretKey: SECRET_VALUES.pushSecretKey,
    },
    ['bootstrapAdminKey', 'postgresPassword', 'grafanaAdminPassword', 'pushSecretKey'],
  );
});

const container = (name: string) => resource(run, 'docker:index/container:Container', name).inputs;
const envOf = (name: string): Record<string, string> =>
  Object.fromEntries(
    (reveal(container(name).envs) as string[]).map((entry) => {
      const at = entry.indexOf('=');
      return [entry.slice(0, at), entry.slice(at + 1)];
    }),
  );
const upload = (name: string, file: string) => (container(name).uploads as { file: string; content: string }[]).find((u) => u.file === file)?.content;

describe('local stack: parts', () => {
  it('creates the same four parts as compose, the key step, a network and volumes, and nothing on Kubernetes', () => {
    const created = run.resources
      .filter((r) => !r.type.startsWith('pulumi:'))
      .map((r) => `${r.type} ${r.name}`)
      .sort();
    expect(created).toEqual([
      'docker:index/container:Container grafana',
      'docker:index/container:Container metrics-key',
      'docker:index/container:Container miniqueue',
      'docker:index/container:Container postgres',
      'docker:index/container:Container prometheus',
      'docker:index/image:Image miniqueue',
      'docker:index/network:Network miniqueue',
      'docker:index/remoteImage:RemoteImage grafana',
      'docker:index/remoteImage:RemoteImage postgres',
      'docker:index/remoteImage:RemoteImage prometheus',
      'docker:index/volume:Volume grafana-data',
      'docker:index/volume:Volume postgres-data',
      'docker:index/volume:Volume prometheus-data',
      'docker:index/volume:Volume prometheus-key',
    ]);
  });

  it("builds the broker from the repository's Dockerfile and runs that very build", () => {
    const image = resource(run, 'docker:index/image:Image', 'miniqueue').inputs;
    expect(image.build).toMatchObject({ context: REPO_ROOT, dockerfile: `${REPO_ROOT}Dockerfile` });
    expect(image.skipPush).toBe(true);
    expect(container('miniqueue').image).toBe('sha256:0000built');
    expect(container('metrics-key').image).toBe('sha256:0000built');
  });

  it('publishes the configured ports and reports them as the URLs', () => {
    expect(container('miniqueue').ports).toEqual([{ internal: 8080, external: 18080 }]);
    expect(container('grafana').ports).toEqual([{ internal: 3000, external: 13000 }]);
    expect(container('prometheus').ports).toEqual([{ internal: 9090, external: 9090 }]);
    expect(run.outputs).toEqual({ target: 'local', brokerUrl: 'http://localhost:18080', grafanaUrl: 'http://localhost:13000' });
  });
});

describe('local stack: secrets', () => {
  it('never puts a secret in plain text into any resource input', () => expectNoPlainSecrets(run, SECRETS));
  it('passes every secret on as a Pulumi secret', () => expectWrappedSecrets(run, SECRETS));
  it('keeps secrets out of the stack outputs', () => expectOutputsFree(run, SECRETS));
});

describe('local stack: the broker', () => {
  it('sets only variables of the broker schema, with the database and admin key', () => {
    const env = envOf('miniqueue');
    for (const name of Object.keys(env)) expect(BROKER_ENV_KEYS).toContain(name);
    expect(env).toMatchObject({
      DATABASE_URL: `postgres://miniqueue:${SECRET_VALUES.postgresPassword}@postgres:5432/miniqueue`,
      MINIQUEUE_BOOTSTRAP_ADMIN_KEY: SECRET_VALUES.bootstrapAdminKey,
      LOG_LEVEL: 'debug',
      MINIQUEUE_DB_POOL_SIZE: '20',
      MINIQUEUE_PUSH_SECRET_KEY: SECRET_VALUES.pushSecretKey,
    });
  });

  it('gives the push secret key to the broker only, inside its secret env', () => {
    const envs = container('miniqueue').envs as unknown[];
    const pushKey = strings(envs).filter((s) => s.text.startsWith('MINIQUEUE_PUSH_SECRET_KEY='));
    expect(pushKey).toEqual([expect.objectContaining({ text: `MINIQUEUE_PUSH_SECRET_KEY=${SECRET_VALUES.pushSecretKey}`, secret: true })]);
    for (const other of ['metrics-key', 'prometheus', 'grafana', 'postgres']) {
      expect(JSON.stringify(reveal(container(other).envs) ?? []), other).not.toContain(SECRET_VALUES.pushSecretKey);
    }
  });

  it('waits for the health path before the key step and Prometheus start', () => {
    const broker = container('miniqueue');
    expect(broker.healthcheck.tests.join(' ')).toContain('/actuator/health');
    expect(broker.wait).toBe(true);
    expect(container('postgres').wait).toBe(true);
    expect(container('metrics-key').attach).toBe(true);
  });
});

describe('local stack: monitoring, wired like compose', () => {
  it('gives Prometheus the compose config and rules, which find the broker by its network alias', () => {
    const config = upload('prometheus', '/etc/prometheus/prometheus.yml')!;
    expect(config).toBe(repoFile('prometheus/prometheus.yml'));
    expect(upload('prometheus', '/etc/prometheus/alerts.yml')).toBe(repoFile('prometheus/alerts.yml'));
    const target = parse(config).scrape_configs.find((c: { job_name: string }) => c.job_name === 'miniqueue').static_configs[0].targets[0];
    expect(container('miniqueue').networksAdvanced[0].aliases).toEqual([target.split(':')[0]]);
  });

  it("gives Grafana the provisioning files, whose datasource is Prometheus' alias", () => {
    const datasources = upload('grafana', '/etc/grafana/provisioning/datasources/prometheus.yml')!;
    expect(datasources).toBe(repoFile('grafana/provisioning/datasources/prometheus.yml'));
    expect(upload('grafana', '/etc/grafana/dashboards/miniqueue.json')).toBe(repoFile('grafana/dashboards/miniqueue.json'));
    const host = new URL(parse(datasources).datasources[0].url).hostname;
    expect(container('prometheus').networksAdvanced[0].aliases).toEqual([host]);
  });

  it('shares the key volume between the key step (writing) and Prometheus (reading)', () => {
    const key = container('metrics-key').volumes[0];
    const prometheusKey = container('prometheus').volumes.find((v: { containerPath: string }) => v.containerPath === key.containerPath);
    expect(prometheusKey).toMatchObject({ volumeName: key.volumeName, readOnly: true });
    expect(upload('metrics-key', '/opt/miniqueue/metrics-key.mjs')).toBe(repoFile('prometheus/metrics-key.mjs'));
  });
});
