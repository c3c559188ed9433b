/**
 * The kubernetes stack's default PostgreSQL: CloudNativePG's operator from its Helm chart and a
 * Cluster of three with synchronous replication, under Pulumi's mocks, with the Cluster held to
 * the operator's CRD schema and the chart's values to the chart's schema (test/schemas).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { reveal, resource, runProgram, type ProgramRun } from './helpers/pulumiProgram.js';
import { crdValidator, jsonSchemaValidator } from './helpers/crdSchema.js';
import { SECRET_VALUES, expectNoPlainSecrets, expectOutputsFree, expectWrappedSecrets } from './helpers/secrets.js';
import { CLOUDNATIVE_PG_CHART } from '../src/kubernetes/cloudnativePgOperator.js';

const SCHEMAS = new URL('./schemas/cloudnative-pg/', import.meta.url);
const validCluster = crdValidator(new URL('postgresql.cnpg.io_clusters.v1.30.0.yaml', SCHEMAS), 'v1');
const validChartValues = jsonSchemaValidator(new URL(`chart-${CLOUDNATIVE_PG_CHART.version}.values.schema.json`, SCHEMAS));
const SECRETS = [SECRET_VALUES.bootstrapAdminKey, SECRET_VALUES.postgresPassword, SECRET_VALUES.grafanaAdminPassword];

/** No `postgres` key: the default. */
const STACK_CONFIG = {
  target: 'kubernetes',
  image: 'ghcr.io/acme/miniqueue:1.2.3',
  namespace: 'mq',
  storageClass: 'fast-ssd',
  postgresStorageSize: '20Gi',
  databaseMaxConnections: '150',
  bootstrapAdminKey: SECRET_VALUES.bootstrapAdminKey,
  postgresPassword: SECRET_VALUES.postgresPassword,
  grafanaAdminPassword: SECRET_VALUES.grafanaAdminPassword,
};

let run: ProgramRun;
beforeAll(async () => {
  run = await runProgram('prod', STACK_CONFIG, ['bootstrapAdminKey', 'postgresPassword', 'grafanaAdminPassword']);
});

const cluster = () => resource(run, 'kubernetes:postgresql.cnpg.io/v1:Cluster', 'postgres').inputs;
const operator = () => resource(run, 'kubernetes:helm.sh/v3:Release', 'cloudnative-pg').inputs;

describe('kubernetes stack: replicated PostgreSQL by default', () => {
  it('installs the CloudNativePG operator from its pinned Helm chart, with values the chart accepts', () => {
    const release = operator();
    expect(release.chart).toBe('cloudnative-pg');
    expect(release.version).toBe('0.29.0');
    expect(release.repositoryOpts.repo).toBe('https://cloudnative-pg.github.io/charts');
    expect(release.namespace).toBe('cnpg-system');
    expect(validChartValues(release.values)).toEqual([]);
    expect(release.values.crds.create).toBe(true);
  });

  it("runs a Cluster of three that the operator's CRD schema accepts, and no one-pod StatefulSet", () => {
    expect(validCluster(reveal(cluster()))).toEqual([]);
    expect(cluster().metadata.namespace).toBe('mq');
    expect(cluster().spec.instances).toBe(3);
    expect(run.resources.filter((r) => r.type === 'kubernetes:apps/v1:StatefulSet')).toEqual([]);
  });

  it('confirms a commit only once a standby has it, and never lowers that to none', () => {
    expect(cluster().spec.postgresql.synchronous).toEqual({ method: 'any', number: 1, dataDurability: 'required' });
    expect(cluster().spec.postgresql.parameters.max_connections).toBe('150');
  });

  it('keeps the instances on different nodes and lets a drain take one at a time', () => {
    expect(cluster().spec.affinity).toEqual({ enablePodAntiAffinity: true, podAntiAffinityType: 'required', topologyKey: 'kubernetes.io/hostname' });
    expect(cluster().spec.enablePDB).toBe(true);
    expect(cluster().spec.storage).toEqual({ size: '20Gi', storageClass: 'fast-ssd' });
  });

  it('creates the application role from a Secret and points the brokers at the read-write Service, checked', () => {
    const appSecret = resource(run, 'kubernetes:core/v1:Secret', 'postgres').inputs;
    expect(appSecret.type).toBe('kubernetes.io/basic-auth');
    expect(cluster().spec.bootstrap.initdb).toEqual({ database: 'miniqueue', owner: 'miniqueue', secret: { name: appSecret.metadata.name } });
    expect(reveal(appSecret.stringData)).toEqual({ username: 'miniqueue', password: SECRET_VALUES.postgresPassword });
    const data = reveal(resource(run, 'kubernetes:core/v1:Secret', 'miniqueue').inputs.stringData);
    expect(data.DATABASE_URL).toBe(
      `postgres://miniqueue:${SECRET_VALUES.postgresPassword}@postgres-rw.mq.svc.cluster.local:5432/miniqueue?target_session_attrs=read-write`,
    );
  });

  it('keeps the database password secret everywhere', () => {
    expectNoPlainSecrets(run, SECRETS);
    expectWrappedSecrets(run, SECRETS);
    expectOutputsFree(run, SECRETS);
  });
});

describe('the CRD check itself', () => {
  it('refuses what the operator would not take, or would silently ignore', () => {
    const spec = reveal(cluster()).spec;
    const problems = (changes: Record<string, unknown>) => validCluster({ ...reveal(cluster()), spec: { ...spec, ...changes } });
    expect(problems({ postgresql: { ...spec.postgresql, synchronous: { ...spec.postgresql.synchronous, dataDurability: 'sometimes' } } })).not.toEqual([]);
    expect(problems({ postgresql: { ...spec.postgresql, synchronous: { method: 'any', number: 1, dataDurabilty: 'required' } } })).not.toEqual([]);
    expect(problems({ instances: 'three' })).not.toEqual([]);
  });
});
