/**
 * The `local` stack: the same four parts as docker-compose.yml, on this machine's Docker engine,
 * on one network where they find each other by the same names as in compose.
 */
import * as docker from '@pulumi/docker';
import * as pulumi from '@pulumi/pulumi';
import { brokerEnv, dockerEnvList, type SecretEnvName } from '../brokerEnv.js';
import { DATABASE, postgresUrl } from '../database.js';
import { CONTAINER_PATHS, monitoringFiles } from '../files.js';
import { HEALTH_PATH, METRICS_KEY_DIR, METRICS_KEY_FILE } from '../health.js';
import { PORTS, SERVICE_NAMES, dockerName } from '../naming.js';
import type { Settings } from '../settings.js';
import { dbPoolSize } from '../sizing.js';
import { brokerImage, pulledImages } from './images.js';

export interface DeployOutputs {
  brokerUrl: pulumi.Output<string>;
  grafanaUrl: pulumi.Output<string>;
}

/** A secret `NAME=value` entry of a container's environment. */
const secretEnv = (name: string, value: pulumi.Output<string>) => pulumi.secret(pulumi.interpolate`${name}=${value}`);

export function deployLocal(settings: Settings): DeployOutputs {
  const { stack } = settings;
  const images = pulledImages();
  const network = new docker.Network('miniqueue', { name: dockerName(stack, 'net') });
  const on = (alias: string) => [{ name: network.name, aliases: [alias] }];
  const volume = (part: string) => new docker.Volume(part, { name: dockerName(stack, part) }).name;
  const files = monitoringFiles();

  let databaseUrl: pulumi.Output<string>;
  let postgres: docker.Container | undefined;
  if (settings.database.kind === 'own') {
    const password = settings.database.password;
    postgres = new docker.Container('postgres', {
      name: dockerName(stack, 'postgres'),
      image: images.postgres,
      envs: [`POSTGRES_USER=${DATABASE.user}`, `POSTGRES_DB=${DATABASE.name}`, secretEnv('POSTGRES_PASSWORD', password)],
      volumes: [{ volumeName: volume('postgres-data'), containerPath: '/var/lib/postgresql/data' }],
      networksAdvanced: on(SERVICE_NAMES.postgres),
      healthcheck: { tests: ['CMD-SHELL', `pg_isready -U ${DATABASE.user} -d ${DATABASE.name}`], interval: '5s', timeout: '3s', retries: 20 },
      wait: true,
      restart: 'unless-stopped',
    });
    databaseUrl = pulumi.secret(password.apply((p) => postgresUrl({ host: SERVICE_NAMES.postgres, port: PORTS.postgres, password: p })));
  } else {
    databaseUrl = settings.database.url;
  }

  const env = brokerEnv({ ...settings.broker, dbPoolSize: dbPoolSize(1, settings.databaseMaxConnections) });
  const secrets: Record<SecretEnvName, pulumi.Output<string> | undefined> = {
    DATABASE_URL: databaseUrl,
    MINIQUEUE_BOOTSTRAP_ADMIN_KEY: settings.bootstrapAdminKey,
    GITHUB_CLIENT_SECRET: settings.githubClientSecret,
    MINIQUEUE_PUSH_SECRET_KEY: settings.pushSecretKey,
  };
  const image = brokerImage(stack, settings.image);
  const broker = new docker.Container(
    'miniqueue',
    {
      name: dockerName(stack, 'broker'),
      image,
      envs: [...dockerEnvList(env.plain), ...env.secret.map((name) => secretEnv(name, secrets[name] as pulumi.Output<string>))],
      ports: [{ internal: PORTS.broker, external: settings.local.brokerPort }],
      networksAdvanced: on(SERVICE_NAMES.broker),
      // The image's HEALTHCHECK, restated so the stack does not depend on how the image was built.
      healthcheck: {
        tests: ['CMD', 'node', '-e', `fetch('http://127.0.0.1:${PORTS.broker}${HEALTH_PATH}').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))`],
        interval: '10s',
        timeout: '3s',
        startPeriod: '30s',
        retries: 3,
      },
      wait: true,
      restart: 'unless-stopped',
    },
    { dependsOn: postgres ? [postgres] : [] },
  );

  const keyVolume = volume('prometheus-key');
  // One-shot, as in compose: issues Prometheus' `metrics` key. Root only to write the fresh volume.
  const metricsKey = new docker.Container(
    'metrics-key',
    {
      name: dockerName(stack, 'metrics-key'),
      image,
      user: '0:0',
      command: ['node', CONTAINER_PATHS.metricsKeyScript],
      envs: [
        `MINIQUEUE_URL=http://${SERVICE_NAMES.broker}:${PORTS.broker}`,
        `METRICS_KEY_FILE=${METRICS_KEY_FILE}`,
        secretEnv('MINIQUEUE_ADMIN_KEY', settings.bootstrapAdminKey),
      ],
      uploads: [{ file: CONTAINER_PATHS.metricsKeyScript, content: files.metricsKeyScript }],
      volumes: [{ volumeName: keyVolume, containerPath: METRICS_KEY_DIR }],
      networksAdvanced: on('metrics-key'),
      attach: true,
      mustRun: false,
      logs: true,
    },
    { dependsOn: [broker] },
  );

  const prometheus = new docker.Container(
    'prometheus',
    {
      name: dockerName(stack, 'prometheus'),
      image: images.prometheus,
      command: [`--config.file=${CONTAINER_PATHS.prometheusConfigDir}/prometheus.yml`, '--storage.tsdb.path=/prometheus', '--storage.tsdb.retention.time=15d'],
      uploads: [
        { file: `${CONTAINER_PATHS.prometheusConfigDir}/prometheus.yml`, content: files.prometheusConfig },
        { file: `${CONTAINER_PATHS.prometheusConfigDir}/alerts.yml`, content: files.alertRules },
      ],
      volumes: [
        { volumeName: keyVolume, containerPath: METRICS_KEY_DIR, readOnly: true },
        { volumeName: volume('prometheus-data'), containerPath: '/prometheus' },
      ],
      ports: [{ internal: PORTS.prometheus, external: settings.local.prometheusPort }],
      networksAdvanced: on(SERVICE_NAMES.prometheus),
      restart: 'unless-stopped',
    },
    { dependsOn: [metricsKey] },
  );

  new docker.Container(
    'grafana',
    {
      name: dockerName(stack, 'grafana'),
      image: images.grafana,
      envs: [
        'GF_SECURITY_ADMIN_USER=admin',
        'GF_USERS_ALLOW_SIGN_UP=false',
        `GF_DASHBOARDS_DEFAULT_HOME_DASHBOARD_PATH=${CONTAINER_PATHS.grafanaDashboards}/miniqueue.json`,
        secretEnv('GF_SECURITY_ADMIN_PASSWORD', settings.grafanaAdminPassword),
      ],
      uploads: [
        { file: `${CONTAINER_PATHS.grafanaDatasources}/prometheus.yml`, content: files.grafanaDatasources },
        { file: `${CONTAINER_PATHS.grafanaDashboardProviders}/miniqueue.yml`, content: files.grafanaDashboardProvider },
        ...Object.entries(files.grafanaDashboards).map(([file, content]) => ({ file: `${CONTAINER_PATHS.grafanaDashboards}/${file}`, content })),
      ],
      volumes: [{ volumeName: volume('grafana-data'), containerPath: '/var/lib/grafana' }],
      ports: [{ internal: PORTS.grafana, external: settings.local.grafanaPort }],
      networksAdvanced: on(SERVICE_NAMES.grafana),
      restart: 'unless-stopped',
    },
    { dependsOn: [prometheus] },
  );

  return {
    brokerUrl: pulumi.output(`http://localhost:${settings.local.brokerPort}`),
    grafanaUrl: pulumi.output(`http://localhost:${settings.local.grafanaPort}`),
  };
}
