/**
 * The monitoring files shared with docker compose (prometheus/, grafana/ at the repository root),
 * read once so that every target deploys the very files CI checks.
 */
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const REPO_ROOT = fileURLToPath(new URL('../../', import.meta.url));

const read = (path: string): string => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

export interface MonitoringFiles {
  /** Compose and local stack config: the broker is at `miniqueue:8080`. */
  prometheusConfig: string;
  alertRules: string;
  metricsKeyScript: string;
  grafanaDatasources: string;
  grafanaDashboardProvider: string;
  /** File name → dashboard JSON. */
  grafanaDashboards: Record<string, string>;
}

export function monitoringFiles(): MonitoringFiles {
  return {
    prometheusConfig: read('prometheus/prometheus.yml'),
    alertRules: read('prometheus/alerts.yml'),
    metricsKeyScript: read('prometheus/metrics-key.mjs'),
    grafanaDatasources: read('grafana/provisioning/datasources/prometheus.yml'),
    grafanaDashboardProvider: read('grafana/provisioning/dashboards/miniqueue.yml'),
    grafanaDashboards: { 'miniqueue.json': read('grafana/dashboards/miniqueue.json') },
  };
}

/** Grafana and Prometheus containers mount these paths in every target. */
export const CONTAINER_PATHS = {
  prometheusConfigDir: '/etc/prometheus',
  metricsKeyScript: '/opt/miniqueue/metrics-key.mjs',
  grafanaDatasources: '/etc/grafana/provisioning/datasources',
  grafanaDashboardProviders: '/etc/grafana/provisioning/dashboards',
  // Outside /var/lib/grafana (Grafana's own data), so no mount sits inside another.
  grafanaDashboards: '/etc/grafana/dashboards',
} as const;
