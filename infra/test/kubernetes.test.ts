/**
 * The kubernetes stack with its own one-pod PostgreSQL (`postgres: single`), under Pulumi's mocks.
 * The replicated default is kubernetes-replicated-db.test.ts.
 */
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import { reveal, resource, runProgram, type ProgramRun } from './helpers/pulumiProgram.js';
import { BROKER_ENV_KEYS } from './helpers/brokerSchema.js';
import { SECRET_VALUES, expectNoPlainSecrets, expectOutputsFree, expectWrappedSecrets } from './helpers/secrets.js';

const IMAGE = 'ghcr.io/acme/miniqueue:1.2.3';
const RESOURCES = { requests: { cpu: '500m', memory: '384Mi' }, limits: { cpu: '2', memory: '768Mi' } };
const SECRETS = [
  SECRET_VALUES.bootstrapAdminKey,
  SECRET_VALUES.postgresPassword,
  SECRET_VALUES.grafanaAdminPassword,
  SECRET_VALUES.githubClientSecret,
  SECRET_VALUES.pushSecretKey,
];
const repoFile = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

let run: ProgramRun;
beforeAll(async () => {
  run = await runProgram(
    'prod',
    {
      target: 'kubernetes',
      image: IMAGE,
      namespace: 'mq',
      replicas: '3',
      maxReplicas: '9',
      targetCpuUtilization: '60',
      brokerResources: JSON.stringify(RESOURCES),
      postgres: 'single',
      postgresStorageSize: '20Gi',
      storageClass: 'fast-ssd',
      bootstrapAdminKey: SECRET_VALUES.bootstrapAdminKey,
      postgresPassword: SECRET_VALUES.postgresPassword,
      grafanaAdminPassword: SECRET_VALUES.grafanaAdminPassword,
      githubClientId: 'Iv1.abc',
      githubClientSecret: SECRET_VALUES.githubClientSecret,
      admins: 'alice',
      pushSecretKey: SECRET_VALUES.pushSecretKey,
      pushAllowedNetworks: '10.20.0.0/16',
    },
    ['bootstrapAdminKey', 'postgresPassword', 'grafanaAdminPassword', 'githubClientSecret', 'pushSecretKey'],
  );
});

const deployment = () => resource(run, 'kubernetes:apps/v1:Deployment', 'miniqueue').inputs;
const brokerContainer = () => deployment().spec.template.spec.containers[0];

describe('kubernetes stack: parts', () => {
  it('creates the namespace, PostgreSQL, the broker, Prometheus and Grafana, and nothing on Docker', () => {
    const created = run.resources
      .filter((r) => !r.type.startsWith('pulumi:'))
      .map((r) => `${r.type} ${r.name}`)
      .sort();
    expect(created).toEqual([
      'kubernetes:apps/v1:Deployment grafana',
      'kubernetes:apps/v1:Deployment miniqueue',
      'kubernetes:apps/v1:Deployment prometheus',
      'kubernetes:apps/v1:StatefulSet postgres',
      'kubernetes:autoscaling/v2:HorizontalPodAutoscaler miniqueue',
      'kubernetes:core/v1:ConfigMap grafana-dashboard-providers',
      'kubernetes:core/v1:ConfigMap grafana-dashboards',
      'kubernetes:core/v1:ConfigMap grafana-datasources',
      'kubernetes:core/v1:ConfigMap prometheus-config',
      'kubernetes:core/v1:ConfigMap prometheus-metrics-key',
      'kubernetes:core/v1:Namespace miniqueue',
      'kubernetes:core/v1:PersistentVolumeClaim prometheus-data',
      'kubernetes:core/v1:Secret grafana',
      'kubernetes:core/v1:Secret miniqueue',
      'kubernetes:core/v1:Secret postgres',
      'kubernetes:core/v1:Service grafana',
      'kubernetes:core/v1:Service miniqueue',
      'kubernetes:core/v1:Service postgres',
      'kubernetes:core/v1:Service prometheus',
      'kubernetes:core/v1:ServiceAccount prometheus',
      'kubernetes:policy/v1:PodDisruptionBudget miniqueue',
      'kubernetes:rbac.authorization.k8s.io/v1:Role prometheus',
      'kubernetes:rbac.authorization.k8s.io/v1:RoleBinding prometheus',
    ]);
  });

  it('puts everything in the configured namespace', () => {
    expect(resource(run, 'kubernetes:core/v1:Namespace', 'miniqueue').inputs.metadata.name).toBe('mq');
    for (const r of run.resources.filter((r) => r.type.startsWith('kubernetes:') && !r.type.endsWith('Namespace'))) {
      expect(r.inputs.metadata.namespace, `${r.type} ${r.name}`).toBe('mq');
    }
  });

  it('gives PostgreSQL a volume of the configured size and class', () => {
    const spec = resource(run, 'kubernetes:apps/v1:StatefulSet', 'postgres').inputs.spec;
    expect(spec.volumeClaimTemplates[0].spec).toMatchObject({ storageClassName: 'fast-ssd', resources: { requests: { storage: '20Gi' } } });
    expect(spec.template.spec.containers[0].args).toEqual(['-c', 'max_connections=100']);
  });

  it('exposes the in-cluster URLs as outputs', () => {
    expect(run.outputs).toEqual({
      target: 'kubernetes',
      brokerUrl: 'http://miniqueue.mq.svc.cluster.local:8080',
      grafanaUrl: 'http://grafana.mq.svc.cluster.local:3000',
    });
  });
});

describe('kubernetes stack: secrets', () => {
  it('never puts a secret in plain text into any resource input', () => expectNoPlainSecrets(run, SECRETS));
  it('passes every secret on as a Pulumi secret', () => expectWrappedSecrets(run, SECRETS));
  it('keeps secrets out of the stack outputs', () => expectOutputsFree(run, SECRETS));

  it('keeps the database URL, admin key, GitHub secret and push secret key in the Secret the pods read', () => {
    const secret = resource(run, 'kubernetes:core/v1:Secret', 'miniqueue').inputs;
    const data = reveal(secret.stringData);
    expect(Object.keys(data).sort()).toEqual(['DATABASE_URL', 'GITHUB_CLIENT_SECRET', 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY', 'MINIQUEUE_PUSH_SECRET_KEY']);
    expect(data.MINIQUEUE_PUSH_SECRET_KEY).toBe(SECRET_VALUES.pushSecretKey);
    expect(data.DATABASE_URL).toBe(`postgres://miniqueue:${SECRET_VALUES.postgresPassword}@postgres.mq.svc.cluster.local:5432/miniqueue`);
    expect(data.MINIQUEUE_BOOTSTRAP_ADMIN_KEY).toBe(SECRET_VALUES.bootstrapAdminKey);
  });
});

describe('kubernetes stack: the broker', () => {
  it("runs the configured image, in Prometheus' key step too", () => {
    expect(brokerContainer().image).toBe(IMAGE);
    const prometheus = resource(run, 'kubernetes:apps/v1:Deployment', 'prometheus').inputs;
    expect(prometheus.spec.template.spec.initContainers[0].image).toBe(IMAGE);
  });

  it('sets only variables of the broker schema, and credentials only from the Secret', () => {
    const env: { name: string; value?: string; valueFrom?: { secretKeyRef: { name: string; key: string } } }[] = brokerContainer().env;
    for (const { name } of env) expect(BROKER_ENV_KEYS).toContain(name);
    const fromSecret = env
      .filter((e) => e.valueFrom)
      .map((e) => e.name)
      .sort();
    expect(fromSecret).toEqual(['DATABASE_URL', 'GITHUB_CLIENT_SECRET', 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY', 'MINIQUEUE_PUSH_SECRET_KEY']);
    for (const e of env.filter((e) => e.valueFrom)) expect(e.valueFrom!.secretKeyRef).toEqual({ name: 'miniqueue', key: e.name });
    const plain = Object.fromEntries(env.filter((e) => !e.valueFrom).map((e) => [e.name, e.value]));
    // nine replicas at most on 100 connections: floor(90 / 9) - 3 dedicated - 2 for the dashboard
    expect(plain).toMatchObject({
      PORT: '8080',
      MINIQUEUE_DB_POOL_SIZE: '5',
      GITHUB_CLIENT_ID: 'Iv1.abc',
      MINIQUEUE_ADMINS: 'alice',
      MINIQUEUE_PUSH_ALLOWED_NETWORKS: '10.20.0.0/16',
    });
    // Every replica runs this one pod template, so all of them read the same key from the one Secret.
    expect(plain).not.toHaveProperty('MINIQUEUE_PUSH_SECRET_KEY');
  });

  it('probes the real health path on the container port', () => {
    const container = brokerContainer();
    expect(container.ports).toEqual([{ name: 'http', containerPort: 8080 }]);
    for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
      expect(container[probe].httpGet, probe).toEqual({ path: '/actuator/health', port: 'http' });
    }
  });

  it('follows the configured replicas, autoscaling bounds and resources', () => {
    expect(deployment().spec.replicas).toBe(3);
    expect(brokerContainer().resources).toEqual(RESOURCES);
    const hpa = resource(run, 'kubernetes:autoscaling/v2:HorizontalPodAutoscaler', 'miniqueue').inputs.spec;
    expect(hpa).toMatchObject({ minReplicas: 3, maxReplicas: 9, scaleTargetRef: { kind: 'Deployment', name: 'miniqueue' } });
    expect(hpa.metrics[0].resource.target).toEqual({ type: 'Utilization', averageUtilization: 60 });
  });

  it('rolls out without losing capacity and drains one pod at a time', () => {
    expect(deployment().spec.strategy).toEqual({ type: 'RollingUpdate', rollingUpdate: { maxSurge: 1, maxUnavailable: 0 } });
    const pdb = resource(run, 'kubernetes:policy/v1:PodDisruptionBudget', 'miniqueue').inputs.spec;
    expect(pdb).toEqual({ maxUnavailable: 1, selector: { matchLabels: deployment().spec.selector.matchLabels } });
    expect(deployment().spec.template.spec.terminationGracePeriodSeconds).toBe(35);
  });

  it('runs as a non-root user with a read-only root filesystem', () => {
    const pod = deployment().spec.template.spec;
    expect(pod.securityContext).toMatchObject({ runAsNonRoot: true, runAsUser: 1000 });
    expect(brokerContainer().securityContext).toMatchObject({ readOnlyRootFilesystem: true, allowPrivilegeEscalation: false });
  });

  it('selects its pods with the Service and the Deployment alike', () => {
    const service = resource(run, 'kubernetes:core/v1:Service', 'miniqueue').inputs.spec;
    expect(service.selector).toEqual(deployment().spec.selector.matchLabels);
    expect(deployment().spec.template.metadata.labels).toMatchObject(service.selector);
    expect(service.ports).toEqual([{ name: 'http', port: 8080, targetPort: 'http' }]);
  });
});

describe('kubernetes stack: monitoring', () => {
  it('lets Prometheus discover every broker pod in the namespace and scrape it with its own key', () => {
    const config = resource(run, 'kubernetes:core/v1:ConfigMap', 'prometheus-config').inputs.data;
    const prometheus = JSON.parse(config['prometheus.yml']);
    const job = prometheus.scrape_configs.find((c: { job_name: string }) => c.job_name === 'miniqueue');
    expect(job.kubernetes_sd_configs[0].namespaces.names).toEqual(['mq']);
    const selector = deployment().spec.selector.matchLabels;
    const selected = job.kubernetes_sd_configs[0].selectors[0].label.split(',').sort();
    expect(selected).toEqual(
      Object.entries(selector)
        .map(([k, v]) => `${k}=${v}`)
        .sort(),
    );
    expect(job.authorization.credentials_file).toBe('/var/run/miniqueue/metrics-key');
    expect(config['alerts.yml']).toBe(repoFile('prometheus/alerts.yml'));
    const role = resource(run, 'kubernetes:rbac.authorization.k8s.io/v1:Role', 'prometheus').inputs;
    expect(role.rules).toEqual([{ apiGroups: [''], resources: ['pods'], verbs: ['get', 'list', 'watch'] }]);
  });

  it('gives the admin key to the key step only, never to the Prometheus container', () => {
    const pod = resource(run, 'kubernetes:apps/v1:Deployment', 'prometheus').inputs.spec.template.spec;
    const init = pod.initContainers[0];
    expect(init.env.find((e: { name: string }) => e.name === 'MINIQUEUE_ADMIN_KEY').valueFrom.secretKeyRef).toEqual({
      name: 'miniqueue',
      key: 'MINIQUEUE_BOOTSTRAP_ADMIN_KEY',
    });
    expect(pod.containers[0].env).toBeUndefined();
    expect(resource(run, 'kubernetes:core/v1:ConfigMap', 'prometheus-metrics-key').inputs.data['metrics-key.mjs']).toBe(repoFile('prometheus/metrics-key.mjs'));
  });

  it("provisions Grafana from the repository's files", () => {
    const data = (name: string) => resource(run, 'kubernetes:core/v1:ConfigMap', name).inputs.data;
    expect(data('grafana-datasources')['prometheus.yml']).toBe(repoFile('grafana/provisioning/datasources/prometheus.yml'));
    expect(data('grafana-dashboard-providers')['miniqueue.yml']).toBe(repoFile('grafana/provisioning/dashboards/miniqueue.yml'));
    expect(data('grafana-dashboards')['miniqueue.json']).toBe(repoFile('grafana/dashboards/miniqueue.json'));
    const grafana = resource(run, 'kubernetes:apps/v1:Deployment', 'grafana').inputs.spec.template.spec.containers[0];
    expect(grafana.env.find((e: { name: string }) => e.name === 'GF_SECURITY_ADMIN_PASSWORD').valueFrom.secretKeyRef).toEqual({
      name: 'grafana',
      key: 'admin-password',
    });
  });
});
