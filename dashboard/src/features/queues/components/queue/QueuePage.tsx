import { useEffect, useState } from 'react';
import { NotFoundError, type Queue } from '@miniqueue/sdk';
import { useSession } from '../../../../app/session';
import { formatTime } from '../../../../lib/format';
import { Link, navigate, usePath } from '../../../../lib/router';
import { Card, PageHeader } from '../../../../lib/ui/Card';
import { Empty, ErrorNotice, Loading } from '../../../../lib/ui/States';
import { Tabs } from '../../../../lib/ui/Tabs';
import { useResource } from '../../../../lib/useResource';
import { useQueueStatsLive } from '../../../attention/api/useQueueStatsLive';
import { loadQueue } from '../../api/settings';
import { QUEUE_PANELS } from '../../panels';
import { RateHistoryChart } from '../../../rates/components/RateHistoryChart';
import { ACKED, DEAD, DELIVERED, ENQUEUED } from '../../../rates/lines';
import { QueueMessages } from '../messages/QueueMessages';
import { QueueConsumerList } from './QueueConsumerList';
import { QueueCounts } from './QueueCounts';
import { QueueSettings } from './QueueSettings';

/** The queue named in the address, /queues/<name>. */
const queueOfPath = (pathname: string): string => decodeURIComponent(pathname.split('/')[2] ?? '');

/** One queue: its numbers, charts and consumers, then its messages, settings and other features in tabs. */
export function QueuePage() {
  const { mq, admin } = useSession();
  const { pathname, search } = usePath();
  const name = queueOfPath(pathname);
  const loaded = useResource((signal) => loadQueue(mq, name, signal), [mq, name]);
  const [queue, setQueue] = useState<Queue | undefined>();
  // Refreshed as the broker reports activity (and when it is quiet): counts, flags, open sockets.
  const stats = useQueueStatsLive().data?.find((entry) => entry.queue === name);
  useEffect(() => setQueue(loaded.data), [loaded.data]);
  useEffect(() => {
    document.title = `${name} · Queues · MiniQueue`;
  }, [name]);

  const panels = QUEUE_PANELS.filter((panel) => admin || !panel.adminOnly);
  const tabs = [{ id: 'messages', label: 'Messages' }, { id: 'settings', label: 'Settings' }, ...panels];
  // The tab lives in the address (?tab=push), so it survives a reload and can be linked to.
  const tab = tabs.find((candidate) => candidate.id === search.get('tab'))?.id ?? 'messages';
  const choose = (id: string) => navigate(id === 'messages' ? pathname : `${pathname}?tab=${id}`, { replace: true });
  const panel = panels.find((candidate) => candidate.id === tab);

  const back = (
    <Link href="/queues" className="text-sm font-medium text-indigo-700 hover:underline">
      ← All queues
    </Link>
  );
  if (loaded.error instanceof NotFoundError) {
    return (
      <>
        <PageHeader title={name} actions={back} />
        <Empty title={`There is no queue named ${name}`}>It may have been deleted.</Empty>
      </>
    );
  }
  return (
    <>
      <PageHeader title={name} description={queue && `Bound to topic ${queue.topic_name} · created ${formatTime(queue.created_at)}`} actions={back} />
      {loaded.loading && <Loading />}
      {loaded.error !== undefined && <ErrorNotice error={loaded.error} onRetry={loaded.reload} />}
      {queue && (
        <div className="space-y-6">
          {stats && <QueueCounts row={stats} />}
          <div className="grid gap-6 xl:grid-cols-5">
            <RateHistoryChart
              title="Rates and depth"
              className="xl:col-span-3"
              queue={name}
              lines={[ENQUEUED, DELIVERED, ACKED, DEAD]}
              testId="queue-chart"
              depthTestId="queue-depth"
              currentDepth={stats?.pending}
            />
            <QueueConsumerList queue={name} websocketConsumers={stats?.websocket_consumers ?? 0} className="xl:col-span-2" />
          </div>
          <Card>
            <Tabs tabs={tabs} current={tab} onChange={choose} label={`Sections of ${name}`}>
              {tab === 'messages' && <QueueMessages queue={name} />}
              {tab === 'settings' && <QueueSettings queue={queue} onSaved={setQueue} />}
              {panel && (
                <div data-panel={panel.id}>
                  <panel.component queue={name} />
                </div>
              )}
            </Tabs>
          </Card>
        </div>
      )}
    </>
  );
}
