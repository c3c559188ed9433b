/**
 * The broker's probes, all on the health endpoint (200 with a reachable database, 503 without).
 * startup: migrations may take a while on first start, so up to two minutes.
 * readiness: a pod without its database leaves the Service quickly and comes back on its own.
 * liveness: lenient (a minute of failures), so a short database outage does not restart every
 *   pod at once; a broker that stays unhealthy longer is restarted.
 */
import { HEALTH_PATH } from '../health.js';

const httpGet = { path: HEALTH_PATH, port: 'http' };

export function brokerProbes() {
  return {
    startupProbe: { httpGet, periodSeconds: 2, timeoutSeconds: 2, failureThreshold: 60 },
    readinessProbe: { httpGet, periodSeconds: 5, timeoutSeconds: 2, failureThreshold: 2 },
    livenessProbe: { httpGet, periodSeconds: 10, timeoutSeconds: 3, failureThreshold: 6 },
  };
}
