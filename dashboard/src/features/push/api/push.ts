import { ErrorCode, MiniQueueError, type MiniQueue, type PushEndpoint, type PushEndpointWithSecret } from '@miniqueue/sdk';

/** The queue's push endpoint, or null when it has none. */
export async function loadPush(mq: MiniQueue, queue: string, signal: AbortSignal): Promise<PushEndpoint | null> {
  try {
    return await mq.push.get(queue, { signal });
  } catch (error) {
    if (error instanceof MiniQueueError && error.code === ErrorCode.PushEndpointNotFound) return null;
    throw error;
  }
}

export const setPush = (mq: MiniQueue, queue: string, url: string, maxInFlight: number) => mq.push.set(queue, url, { maxInFlight });

export const rotatePushSecret = (mq: MiniQueue, queue: string): Promise<PushEndpointWithSecret> => mq.push.rotateSecret(queue);

export const clearPush = (mq: MiniQueue, queue: string) => mq.push.clear(queue);

export const hasSecret = (endpoint: PushEndpoint | PushEndpointWithSecret): endpoint is PushEndpointWithSecret => 'secret' in endpoint;
