import { DashboardApi, type Overview, type QueueConsumers, type QueueStats, type RateSeries } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';

export interface RatesOptions extends CallOptions {
  /** Only this queue; default the whole broker. */
  queue?: string;
  /** How far back, 5..86400 seconds. Default 3600. */
  windowSeconds?: number;
  /** Bucket length, a multiple of 5 up to 3600 (raised by the broker for long windows). Default 5. */
  resolutionSeconds?: number;
}

export function dashboardResource(t: Transport) {
  return {
    /** Broker-wide message counts by status, and the number of topics and queues (view). */
    overview: (options?: CallOptions): Promise<Overview> => t.api(DashboardApi, options).getOverview(),
    /** Per-queue counts, rates over the last minute, consumers, oldest pending age and depth history (view). */
    queues: (options?: CallOptions): Promise<QueueStats[]> => t.api(DashboardApi, options).getQueueStats(),
    /** Who consumed one queue in the last hour, when each was last seen and what it holds; whether it has a push endpoint (view). */
    consumers: (queue: string, options?: CallOptions): Promise<QueueConsumers> => t.api(DashboardApi, options).getQueueConsumers({ queue }),
    /** Publishes, copies, deliveries, acks, nacks, deaths, redeliveries, replays and depth per bucket (view). */
    rates: (options: RatesOptions = {}): Promise<RateSeries> =>
      t.api(DashboardApi, options).getRates({
        queue: options.queue,
        windowSeconds: options.windowSeconds,
        resolutionSeconds: options.resolutionSeconds,
      }),
  };
}

export type DashboardResource = ReturnType<typeof dashboardResource>;
