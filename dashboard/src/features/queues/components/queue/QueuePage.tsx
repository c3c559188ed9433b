import { useEffect, useState } from 'react';
import { NotFoundError, type Queue } from '@miniqueue/sdk';
import { useSession } from '../../../../app/session';
import { formatTime } from '../../../../lib/format';
import { Link, usePath } from '../../../../lib/router';
import { Card, PageHeader } from '../../../../lib/ui/Card';
import { Empty, ErrorNotice, Loading } from '../../../../lib/ui/States';
import { useResource } from '../../../../lib/useResource';
import { loadQueue } from '../../api/settings';
import { QUEUE_PANELS } from '../../panels';
import { RateHistoryChart } from '../../../rates/components/RateHistoryChart';
import { ACKED, DEAD, DELIVERED, ENQUEUED } from '../../../rates/lines';
import { QueueMessages } from '../messages/QueueMessages';
import { QueueCounts } from './QueueCounts';
import { QueueSettings } from './QueueSettings';

/** The queue named in the address, /queues/<name>. */
const queueOfPath = (pathname: string): string => decodeURIComponent(pathname.split('/')[2] ?? '');

/** One queue: its numbers, its settings, its messages, and the sections other features add. */
export function QueuePage() {
  const { mq, admin } = useSession();
  const name = queueOfPath(usePath().pathname);
  const loaded = useResource((signal) => loadQueue(mq, name, signal), [mq, name]);
  const [queue, setQueue] = useState<Queue | undefined>();
  useEffect(() => setQueue(loaded.data), [loaded.data]);
  useEffect(() => {
    document.title = `${name} · Queues · MiniQueue`;
  }, [name]);

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
      <PageHeader
        title={name}
        description={queue && `Bound to topic ${queue.topic_name} · created ${formatTime(queue.created_at)}`}
        actions={back}
      />
      {loaded.loading && <Loading />}
      {loaded.error !== undefined && <ErrorNotice error={loaded.error} onRetry={loaded.reload} />}
      {queue && (
        <div className="space-y-6">
          <QueueCounts queue={name} />
          <div className="grid gap-6 xl:grid-cols-5">
            <Card title="Rates, last hour" className="xl:col-span-3">
              <RateHistoryChart queue={name} lines={[ENQUEUED, DELIVERED, ACKED, DEAD]} testId="queue-chart" />
            </Card>
            <Card title="Settings" className="xl:col-span-2">
              <QueueSettings queue={queue} onSaved={setQueue} />
            </Card>
          </div>
          <Card title="Messages">
            <QueueMessages queue={name} />
          </Card>
          {QUEUE_PANELS.filter((panel) => admin || !panel.adminOnly).map((panel) => (
            <div key={panel.id} className="overflow-hidden rounded-lg bg-white shadow-xs ring-1 ring-slate-200" data-panel={panel.id}>
              <panel.component queue={name} />
            </div>
          ))}
        </div>
      )}
    </>
  );
}
