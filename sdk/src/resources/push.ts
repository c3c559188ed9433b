import { PushApi, PushEndpointFromJSON, PushEndpointWithSecretFromJSON, type PushEndpoint, type PushEndpointWithSecret } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';

export interface SetPushOptions extends CallOptions {
  /** Messages out at once to the endpoint, across all broker instances (1..100, default 4). */
  maxInFlight?: number;
  /** Seconds a POST may take before it counts as failed (1..60, default 10). */
  timeoutSeconds?: number;
}

export function pushResource(t: Transport) {
  return {
    /**
     * Gives a queue a push endpoint, or changes it (admin). A new endpoint's answer carries its
     * signing `secret`, this once; a changed one keeps its secret and has none.
     */
    set: async (queue: string, url: string, options: SetPushOptions = {}): Promise<PushEndpoint | PushEndpointWithSecret> => {
      const response = await t.api(PushApi, options).setQueuePushRaw({
        queue,
        pushEndpointRequest: { url, max_in_flight: options.maxInFlight, timeout_seconds: options.timeoutSeconds },
      });
      // The generated method reads every answer as the 200's shape, which has no secret.
      const json: unknown = await response.raw.json();
      return response.raw.status === 201 ? PushEndpointWithSecretFromJSON(json) : PushEndpointFromJSON(json);
    },
    /** The queue's endpoint, never its secret (view). NotFoundError when it has none. */
    get: (queue: string, options?: CallOptions): Promise<PushEndpoint> => t.api(PushApi, options).getQueuePush({ queue }),
    /** Removes the endpoint (admin); the queue's messages stay. */
    clear: (queue: string, options?: CallOptions): Promise<void> => t.api(PushApi, options).clearQueuePush({ queue }),
    /** A new signing secret, shown this once; the old one also signs for an hour (admin). */
    rotateSecret: (queue: string, options?: CallOptions): Promise<PushEndpointWithSecret> => t.api(PushApi, options).rotateQueuePushSecret({ queue }),
  };
}

export type PushResource = ReturnType<typeof pushResource>;
