/** The broker's health endpoint: 200 when it can reach its database, 503 when it cannot. */
export const HEALTH_PATH = '/actuator/health';
/** Where Prometheus scrapes the broker (scope `metrics`). */
export const METRICS_PATH = '/actuator/prometheus';
/** Where the metrics-key step leaves Prometheus' key; prometheus/prometheus.yml reads it from here. */
export const METRICS_KEY_DIR = '/var/run/miniqueue';
export const METRICS_KEY_FILE = `${METRICS_KEY_DIR}/metrics-key`;
