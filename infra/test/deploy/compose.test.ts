/**
 * docker-compose.yml, checked without an engine: against the Compose Specification's JSON schema
 * (vendored), and for the wiring the deployment needs.
 */
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import { describe, expect, it } from 'vitest';
import composeSpec from '../schemas/compose-spec.json' with { type: 'json' };
import { IMAGES } from '../../src/images.js';
import { BROKER_ENV_KEYS, envSchema } from '../helpers/brokerSchema.js';
import { repoFile, repoHas, repoYaml } from '../helpers/repo.js';

const compose = repoYaml('docker-compose.yml');
const services = compose.services as Record<string, any>;

let compiled: ValidateFunction | undefined;
/** The schema names draft-07 by its https address, which ajv knows by its http one: drop it. */
function validator() {
  if (compiled) return compiled;
  const { $schema: _draft, ...schema } = composeSpec as Record<string, unknown>;
  const ajv = new Ajv({ strict: false, allErrors: true });
  // ajv-formats is CommonJS; its default export is the plugin function.
  (addFormats as unknown as (ajv: Ajv) => void)(ajv);
  return (compiled = ajv.compile(schema));
}

describe('docker-compose.yml', () => {
  it('is valid against the Compose Specification schema', () => {
    const validate = validator();
    expect(validate(compose), JSON.stringify(validate.errors, null, 2)).toBe(true);
  });

  it('would be rejected by the schema if it were malformed (the check is live)', () => {
    const validate = validator();
    const broken = structuredClone(compose);
    broken.services.miniqueue.depends_on.postgres.condition = 'service_started_eventually';
    expect(validate(broken)).toBe(false);
  });

  it('runs PostgreSQL 16 on a named volume, the broker, Prometheus and Grafana', () => {
    expect(Object.keys(services).sort()).toEqual(['grafana', 'metrics-key', 'miniqueue', 'postgres', 'prometheus']);
    expect(services.postgres.image).toMatch(/^postgres:16\b/);
    expect(services.postgres.volumes).toContain('postgres-data:/var/lib/postgresql/data');
    expect(compose.volumes).toHaveProperty('postgres-data');
    expect(services.miniqueue.build).toBe('.');
  });

  it('uses the same pinned images as the Pulumi stacks', () => {
    expect(services.postgres.image).toBe(IMAGES.postgres);
    expect(services.prometheus.image).toBe(IMAGES.prometheus);
    expect(services.grafana.image).toBe(IMAGES.grafana);
  });

  it('starts in health-checked order: database, broker, key, Prometheus, Grafana', () => {
    expect(services.postgres.healthcheck.test.join(' ')).toContain('pg_isready');
    expect(services.miniqueue.depends_on).toEqual({ postgres: { condition: 'service_healthy' } });
    expect(services['metrics-key'].depends_on).toEqual({ miniqueue: { condition: 'service_healthy' } });
    expect(services.prometheus.depends_on).toEqual({ 'metrics-key': { condition: 'service_completed_successfully' } });
    expect(services.grafana.depends_on).toEqual({ prometheus: { condition: 'service_healthy' } });
    expect(services.prometheus.healthcheck).toBeDefined();
  });

  it('sets only broker variables the schema knows, with the secrets from .env', () => {
    const env = services.miniqueue.environment as Record<string, string>;
    for (const name of Object.keys(env)) expect(BROKER_ENV_KEYS).toContain(name);
    expect(env.MINIQUEUE_BOOTSTRAP_ADMIN_KEY).toMatch(/^\$\{MINIQUEUE_BOOTSTRAP_ADMIN_KEY:\?/);
    expect(env.DATABASE_URL).toMatch(/^postgres:\/\/miniqueue:\$\{POSTGRES_PASSWORD:\?[^}]*\}@postgres:5432\/miniqueue$/);
    // Optional: left out of .env it reaches the broker empty, which the schema takes as unset.
    expect(env.MINIQUEUE_PUSH_SECRET_KEY).toBe('${MINIQUEUE_PUSH_SECRET_KEY:-}');
    expect(envSchema.validate({ MINIQUEUE_PUSH_SECRET_KEY: '' }).error).toBeUndefined();
  });

  it('mounts prometheus/ and grafana/ from the repository', () => {
    expect(services.prometheus.volumes).toContain('./prometheus:/etc/prometheus:ro');
    expect(services['metrics-key'].volumes).toContain('./prometheus/metrics-key.mjs:/opt/miniqueue/metrics-key.mjs:ro');
    expect(services.grafana.volumes).toEqual(
      expect.arrayContaining(['./grafana/provisioning:/etc/grafana/provisioning:ro', './grafana/dashboards:/etc/grafana/dashboards:ro']),
    );
    for (const path of ['prometheus/prometheus.yml', 'prometheus/metrics-key.mjs', 'grafana/provisioning', 'grafana/dashboards']) {
      expect(repoHas(path), path).toBe(true);
    }
  });

  it('keeps the admin key away from Prometheus, which gets only the metrics key volume', () => {
    expect(JSON.stringify(services.prometheus)).not.toContain('MINIQUEUE_BOOTSTRAP_ADMIN_KEY');
    expect(services.prometheus.volumes).toContain('prometheus-key:/var/run/miniqueue:ro');
    expect(services['metrics-key'].volumes).toContain('prometheus-key:/var/run/miniqueue');
  });

  it('names in .env.example every variable it requires, and .env stays out of git', () => {
    const required = new Set([...repoFile('docker-compose.yml').matchAll(/\$\{(\w+):\?/g)].map((m) => m[1]));
    const example = repoFile('.env.example');
    for (const name of required) expect(example, name).toMatch(new RegExp(`^${name}=`, 'm'));
    expect(repoFile('.gitignore').split('\n')).toContain('.env');
  });
});
