import { ErrorCode, MiniQueueError, type MiniQueue, type PushEndpoint, type PushEndpointWithSecret } from '@miniqueue/sdk';

/**
 * The queue's push endpoint, or null when it has none. The consumers listing says first whether
 * there is one, so a queue without an endpoint costs no 404 (which a browser reports as an error).
 */
export async function loadPush(mq: MiniQueue, queue: string, signal: AbortSignal): Promise<PushEndpoint | null> {
  if (!(await mq.dashboard.consumers(queue, { signal })).push_endpoint) return null;
  try {
    return await mq.push.get(queue, { signal });
  } catch (error) {
    if (error instanceof MiniQueueError && error.code === ErrorCode.PushEndpointNotFound) return null;
    throw error;
  }
}

export const setPush = (mq: MiniQueue, queue: string, url: string, limits: { maxInFlight: number; timeoutSeconds?: number }) => mq.push.set(queue, url, limits);

export const rotatePushSecret = (mq: MiniQueue, queue: string): Promise<PushEndpointWithSecret> => mq.push.rotateSecret(queue);

export const clearPush = (mq: MiniQueue, queue: string) => mq.push.clear(queue);

export const hasSecret = (endpoint: PushEndpoint | PushEndpointWithSecret): endpoint is PushEndpointWithSecret => 'secret' in endpoint;
