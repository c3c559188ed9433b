import { DashboardApi, type Overview, type QueueStats } from '../generated/index.js';
import type { Transport } from '../http/transport.js';
import type { CallOptions } from '../options.js';

export function dashboardResource(t: Transport) {
  return {
    /** Broker-wide message counts by status, and the number of topics and queues (view). */
    overview: (options?: CallOptions): Promise<Overview> => t.api(DashboardApi, options).getOverview(),
    /** Per-queue message counts and the age of the oldest pending message (view). */
    queues: (options?: CallOptions): Promise<QueueStats[]> => t.api(DashboardApi, options).getQueueStats(),
  };
}

export type DashboardResource = ReturnType<typeof dashboardResource>;
