/**
 * Prometheus' config on Kubernetes. Unlike compose, where one broker answers at `miniqueue:8080`,
 * every replica is scraped on its own (counters are per instance), found through the pod API in
 * the namespace. JSON is valid YAML, so the object is written out as it is.
 */
import { METRICS_KEY_FILE, METRICS_PATH } from '../health.js';
import { selectorLabels } from '../naming.js';

export function kubernetesPrometheusConfig(namespace: string, stack: string): string {
  const selector = Object.entries(selectorLabels('broker', stack))
    .map(([k, v]) => `${k}=${v}`)
    .join(',');
  const config = {
    global: { scrape_interval: '15s', evaluation_interval: '15s' },
    rule_files: ['alerts.yml'],
    scrape_configs: [
      {
        job_name: 'miniqueue',
        metrics_path: METRICS_PATH,
        authorization: { type: 'Bearer', credentials_file: METRICS_KEY_FILE },
        kubernetes_sd_configs: [{ role: 'pod', namespaces: { names: [namespace] }, selectors: [{ role: 'pod', label: selector }] }],
        relabel_configs: [
          // One target per pod: its container port named http (not every declared port).
          { source_labels: ['__meta_kubernetes_pod_container_port_name'], regex: 'http', action: 'keep' },
          { source_labels: ['__meta_kubernetes_pod_phase'], regex: 'Running', action: 'keep' },
          { source_labels: ['__meta_kubernetes_pod_name'], target_label: 'pod' },
          { source_labels: ['__meta_kubernetes_namespace'], target_label: 'namespace' },
        ],
      },
      { job_name: 'prometheus', static_configs: [{ targets: ['localhost:9090'] }] },
    ],
  };
  return `${JSON.stringify(config, null, 2)}\n`;
}
