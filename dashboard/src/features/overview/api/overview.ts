import type { MiniQueue, Overview } from '@miniqueue/sdk';

export const loadOverview = (mq: MiniQueue, signal: AbortSignal): Promise<Overview> => mq.dashboard.overview({ signal });
