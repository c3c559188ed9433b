import { BrokerError, NotFoundError, ValidationError } from '../errors.js';
import type { PushConfig } from '../config.js';
import type { Queryable } from '../db/pool.js';
import { queueExists } from '../db/queries/queue.js';
import { pushEndpointDelete, pushEndpointGet, pushEndpointRotate, pushEndpointUpsert, type PushEndpointRow } from '../db/queries/pushEndpoint.js';
import { encryptSecret, newPushSecret } from '../push/secrets.js';
import { TargetRefused, type PushTargets } from '../push/targets.js';

/** After a rotation the previous secret signs beside the new one for this long. */
export const PREVIOUS_SECRET_SECONDS = 3_600;

export interface PushEndpointView {
  queue: string;
  url: string;
  max_in_flight: number;
  timeout_seconds: number;
  secret_rotated_at: string;
  previous_secret_until: string | null;
  created_at: string;
  updated_at: string;
  consecutive_failures: number;
  last_error: string | null;
  last_error_at: string | null;
  last_success_at: string | null;
}

interface Deps {
  pool: Queryable;
  config: { push: PushConfig };
  pushTargets: PushTargets;
}

const view = (row: PushEndpointRow): PushEndpointView => ({
  queue: row.queue_name,
  url: row.url,
  max_in_flight: row.max_in_flight,
  timeout_seconds: row.timeout_seconds,
  secret_rotated_at: row.secret_rotated_at.toISOString(),
  previous_secret_until: row.previous_secret_until?.toISOString() ?? null,
  created_at: row.created_at.toISOString(),
  updated_at: row.updated_at.toISOString(),
  consecutive_failures: row.consecutive_failures,
  last_error: row.last_error,
  last_error_at: row.last_error_at?.toISOString() ?? null,
  last_success_at: row.last_success_at?.toISOString() ?? null,
});

const noQueue = (queue: string) => new NotFoundError('queue_not_found', `No queue found with the name ${queue}`);

async function noEndpoint(db: Queryable, queue: string): Promise<BrokerError> {
  if (!(await queueExists(db, queue))) return noQueue(queue);
  return new NotFoundError('push_endpoint_not_found', `Queue ${queue} has no push endpoint`);
}

function secretKey(deps: Deps): Buffer {
  const key = deps.config.push.secretKey;
  if (!key) throw new BrokerError(503, 'push_not_configured', 'Push endpoints need MINIQUEUE_PUSH_SECRET_KEY to be set on the broker');
  return key;
}

/**
 * Sets a queue's push endpoint. A new endpoint gets a signing secret, returned here and never
 * again; changing an existing one keeps its secret. The URL is checked now (and again before
 * every delivery): a refused one is 400.
 */
export async function setPushEndpoint(
  deps: Deps,
  queue: string,
  settings: { url: string; maxInFlight: number; timeoutSeconds: number },
): Promise<{ created: boolean; endpoint: PushEndpointView & { secret?: string } }> {
  const key = secretKey(deps);
  try {
    await deps.pushTargets.check(settings.url);
  } catch (error) {
    if (!(error instanceof TargetRefused)) throw error;
    throw new ValidationError('Push endpoint refused', [{ field: 'url', message: error.message }], 'push_target_refused');
  }
  const secret = newPushSecret();
  const row = await pushEndpointUpsert(deps.pool, { queue, ...settings, sealed: encryptSecret(key, queue, secret) });
  if (!row) throw noQueue(queue);
  return row.created ? { created: true, endpoint: { ...view(row), secret } } : { created: false, endpoint: view(row) };
}

export async function getPushEndpoint(deps: Deps, queue: string): Promise<PushEndpointView> {
  const row = await pushEndpointGet(deps.pool, queue);
  if (!row) throw await noEndpoint(deps.pool, queue);
  return view(row);
}

export async function clearPushEndpoint(deps: Deps, queue: string): Promise<void> {
  if (!(await pushEndpointDelete(deps.pool, queue))) throw await noEndpoint(deps.pool, queue);
}

/** A new secret, returned once; the previous one still signs for PREVIOUS_SECRET_SECONDS. */
export async function rotatePushSecret(deps: Deps, queue: string): Promise<PushEndpointView & { secret: string }> {
  const key = secretKey(deps);
  const secret = newPushSecret();
  const row = await pushEndpointRotate(deps.pool, queue, encryptSecret(key, queue, secret), PREVIOUS_SECRET_SECONDS);
  if (!row) throw await noEndpoint(deps.pool, queue);
  return { ...view(row), secret };
}
