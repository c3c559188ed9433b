import type { PushEndpoint, PushEndpointWithSecret } from '@miniqueue/sdk';
import { renderPairs } from './table.js';
import { bold, yellow } from './style.js';
import { formatTime } from './format.js';

export function renderPush(endpoint: PushEndpoint): string {
  return renderPairs([
    ['queue', endpoint.queue],
    ['url', endpoint.url],
    ['max in flight', String(endpoint.max_in_flight)],
    ['timeout', `${endpoint.timeout_seconds} s`],
    ['secret rotated', formatTime(endpoint.secret_rotated_at)],
    ['previous secret signs until', endpoint.previous_secret_until ? formatTime(endpoint.previous_secret_until) : '-'],
    ...pushDeliveryPairs(endpoint),
  ]);
}

/** How the endpoint's deliveries are going: failing in a row (and why), working, or none yet; the last error and success. */
export function pushDeliveryPairs(endpoint: PushEndpoint): [string, string][] {
  const deliveries =
    endpoint.consecutive_failures > 0 ? `failing: ${endpoint.consecutive_failures} in a row` : endpoint.last_success_at ? 'working' : 'none yet';
  return [
    ['deliveries', deliveries],
    ['last error', endpoint.last_error && endpoint.last_error_at ? `${endpoint.last_error} (${formatTime(endpoint.last_error_at)})` : '-'],
    ['last success', endpoint.last_success_at ? formatTime(endpoint.last_success_at) : '-'],
  ];
}

/**
 * The only place a push secret is printed: on its own last line of stdout (`| tail -n 1` keeps
 * it), with the warning on stderr.
 */
export function showNewSecret(endpoint: PushEndpointWithSecret, log: (line: string) => void): void {
  log(renderPush(endpoint));
  process.stderr.write(`${yellow(bold('Copy this signing secret now: it will not be shown again.'))}\n`);
  log(endpoint.secret);
}
