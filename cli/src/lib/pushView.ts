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
  ]);
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
