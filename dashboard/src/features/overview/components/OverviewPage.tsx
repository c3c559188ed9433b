import { useSession } from '../../../app/session';
import { formatCount } from '../../../lib/format';
import { Link } from '../../../lib/router';
import { Card, PageHeader } from '../../../lib/ui/Card';
import { ErrorNotice, Loading } from '../../../lib/ui/States';
import { CountTile } from '../../../lib/ui/CountTile';
import type { StatusName } from '../../../lib/ui/Status';
import { useResource } from '../../../lib/useResource';
import { FeedList } from '../../live/components/FeedList';
import { useMonitor, useRefreshOnActivity } from '../../live/components/MonitorProvider';
import { loadOverview } from '../api/overview';
import { useQueueStatsLive } from '../../attention/api/useQueueStatsLive';
import { NeedsAttention } from '../../attention/components/NeedsAttention';
import { RateHistoryChart } from '../../rates/components/RateHistoryChart';
import { ACKED, DELIVERED, ENQUEUED, PUBLISHED } from '../../rates/lines';

const TILES: { status: StatusName; label: string; key: 'pending' | 'unacked' | 'acked' | 'dead'; meaning: string }[] = [
  { status: 'PENDING', label: 'Pending', key: 'pending', meaning: 'waiting for a consumer' },
  { status: 'UNACKED', label: 'Unacked', key: 'unacked', meaning: 'held by a consumer' },
  { status: 'ACKED', label: 'Acked', key: 'acked', meaning: 'processed' },
  { status: 'DEAD', label: 'Dead', key: 'dead', meaning: 'in the dead-letter queue' },
];

export function OverviewPage() {
  const { mq } = useSession();
  const overview = useResource((signal) => loadOverview(mq, signal), [mq]);
  const { rows } = useMonitor();
  useRefreshOnActivity(overview.reload);
  const stats = useQueueStatsLive();

  return (
    <>
      <PageHeader
        title="Overview"
        description="What needs attention first, then messages in every queue by status. The counts refresh whenever the broker reports activity."
      />
      {stats.data && (
        <div className="mb-5">
          <NeedsAttention stats={stats.data} />
        </div>
      )}
      {overview.loading && <Loading />}
      {overview.error !== undefined && <ErrorNotice error={overview.error} onRetry={overview.reload} />}
      {overview.data && (
        <>
          <dl className="grid grid-cols-2 gap-3 lg:grid-cols-4" data-testid="overview-counts">
            {TILES.map((tile) => (
              <CountTile
                key={tile.key}
                status={tile.status}
                label={tile.label}
                value={overview.data![tile.key]}
                meaning={tile.meaning}
                large
                testId={`count-${tile.key}`}
              />
            ))}
          </dl>
          <p className="mt-3 text-sm text-slate-600">
            {formatCount(overview.data.topics)} {overview.data.topics === 1 ? 'topic' : 'topics'} ·{' '}
            <Link href="/queues" className="font-medium text-indigo-700 hover:underline">
              {formatCount(overview.data.queues)} {overview.data.queues === 1 ? 'queue' : 'queues'}
            </Link>
          </p>
        </>
      )}
      <div className="mt-6 grid gap-6 xl:grid-cols-5">
        <RateHistoryChart title="Throughput" className="xl:col-span-3" lines={[PUBLISHED, ENQUEUED, DELIVERED, ACKED]} testId="overview-chart" />
        <Card
          title="Recent activity"
          className="xl:col-span-2"
          actions={
            <Link href="/live" className="text-sm font-medium text-indigo-700 hover:underline">
              All activity
            </Link>
          }
        >
          <FeedList rows={rows.slice(0, 8)} compact />
        </Card>
      </div>
    </>
  );
}
