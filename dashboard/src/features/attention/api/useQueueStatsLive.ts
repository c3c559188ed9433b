import { useEffect } from 'react';
import type { QueueStats } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { useResource, type Resource } from '../../../lib/useResource';
import { useRefreshOnActivity } from '../../live/components/MonitorProvider';
import { loadQueueStats } from '../../queues/api/queues';

/** Ages grow while nothing happens, so a quiet broker is asked again this often too. */
const QUIET_REFRESH_MS = 15_000;

/** Every queue's stats, reloaded on the broker's activity and every few seconds when it is quiet. */
export function useQueueStatsLive(): Resource<QueueStats[]> {
  const { mq } = useSession();
  const stats = useResource((signal) => loadQueueStats(mq, signal), [mq]);
  useRefreshOnActivity(stats.reload);
  const { reload } = stats;
  useEffect(() => {
    const timer = setInterval(reload, QUIET_REFRESH_MS);
    return () => clearInterval(timer);
  }, [reload]);
  return stats;
}
