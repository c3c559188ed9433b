import { useSession } from '../../../../app/session';
import { formatAge, formatCount } from '../../../../lib/format';
import { Card } from '../../../../lib/ui/Card';
import { ErrorNotice, Loading } from '../../../../lib/ui/States';
import { useResource } from '../../../../lib/useResource';
import { useRefreshOnActivity } from '../../../live/components/MonitorProvider';
import { loadConsumers, secondsSince } from '../../api/consumers';

/** Who consumed the queue in the last hour: identity, when last seen, how many messages it holds. */
export function QueueConsumerList({ queue, websocketConsumers, className }: { queue: string; websocketConsumers: number; className?: string }) {
  const { mq } = useSession();
  const consumers = useResource((signal) => loadConsumers(mq, queue, signal), [mq, queue]);
  useRefreshOnActivity(consumers.reload, 5000);
  const rows = consumers.data?.consumers ?? [];
  return (
    <Card title="Consumers, last hour" className={className}>
      {consumers.loading && <Loading />}
      {consumers.error !== undefined && <ErrorNotice error={consumers.error} onRetry={consumers.reload} />}
      {consumers.data && rows.length === 0 && websocketConsumers === 0 && (
        <p className="text-sm text-slate-600">No consumer has asked this queue for messages in the last hour.</p>
      )}
      {rows.length > 0 && (
        <table className="w-full table-fixed text-sm" data-testid="consumers">
          <thead className="text-left text-xs font-semibold text-slate-600">
            <tr>
              <th scope="col" className="pb-1.5">
                Consumer
              </th>
              <th scope="col" className="w-24 pb-1.5">
                Last seen
              </th>
              <th scope="col" className="w-20 pb-1.5 text-right">
                In flight
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => {
              const age = secondsSince(row.last_seen_at);
              return (
                <tr key={row.consumer_id} data-consumer={row.consumer_id}>
                  <td className="truncate py-1.5 pr-2 font-mono text-xs text-slate-800" title={row.consumer_id}>
                    {row.consumer_id}
                  </td>
                  <td className="py-1.5 text-xs text-slate-700" title={row.last_seen_at?.toISOString()}>
                    {age === null ? 'holding only' : age < 10 ? 'just now' : `${formatAge(age)} ago`}
                  </td>
                  <td className={`py-1.5 text-right tabular-nums ${row.in_flight > 0 ? 'font-semibold text-sky-700' : 'text-slate-600'}`} data-key="in-flight">
                    {formatCount(row.in_flight)}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      )}
      {/* /ws/consume sockets are told of messages rather than asking, so they are counted, not listed, until they hold one. */}
      {websocketConsumers > 0 && (
        <p className="mt-2 text-xs text-slate-600" data-testid="websocket-consumers">
          {websocketConsumers === 1 ? '1 consumer WebSocket open' : `${websocketConsumers} consumer WebSockets open`} (listed above while holding a message).
        </p>
      )}
      {consumers.data?.push_endpoint && <p className="mt-2 text-xs text-slate-600">This queue also has a push endpoint (see Push).</p>}
    </Card>
  );
}
