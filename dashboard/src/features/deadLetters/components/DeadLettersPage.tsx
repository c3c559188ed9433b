import { useState } from 'react';
import { useSession } from '../../../app/session';
import { capitalize } from '../../../lib/format';
import { Button } from '../../../lib/ui/Button';
import { PageHeader } from '../../../lib/ui/Card';
import { Empty, ErrorNotice, Loading, Notice } from '../../../lib/ui/States';
import { useResource } from '../../../lib/useResource';
import { useRefreshOnActivity } from '../../live/components/MonitorProvider';
import { describeTotal, loadQueueStats } from '../../queues/api/queues';
import { MessageDetails } from '../../queues/components/messages/MessageDetails';
import { cursorPages, Pager } from '../../queues/components/Pager';
import { loadDeadLetters, type DeadLetterQuery } from '../api/deadLetters';
import { BulkBar } from './BulkBar';
import { DeadLetterFilters } from './DeadLetterFilters';
import { useDeadLetterActions } from './useDeadLetterActions';

export function DeadLettersPage() {
  const { mq, admin } = useSession();
  const [query, setQuery] = useState<DeadLetterQuery>({});
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [done, setDone] = useState<string | null>(null);
  const pages = cursorPages(stack, setStack);
  const stats = useResource((signal) => loadQueueStats(mq, signal), [mq]);
  const dead = useResource((signal) => loadDeadLetters(mq, query, { cursor: pages.cursor, signal }), [mq, query, pages.cursor]);
  useRefreshOnActivity(stats.reload, 2000);

  const afterChange = (outcome: string) => {
    setDone(outcome || null);
    setSelected(new Set());
    dead.reload();
    stats.reload();
  };
  const actions = useDeadLetterActions(afterChange);
  const change = (next: DeadLetterQuery) => {
    setQuery(next);
    setSelected(new Set());
    setDone(null);
    pages.reset();
  };
  const toggle = (id: string) => {
    const next = new Set(selected);
    if (!next.delete(id)) next.add(id);
    setSelected(next);
  };

  const items = dead.data?.items ?? [];
  const total = dead.data ? describeTotal(dead.data) : null;
  return (
    <>
      <PageHeader
        title="Dead letters"
        description="Messages that ran out of retries, whose lease expired with none left, or that a consumer rejected. Each says why and when it died. Replaying puts it back in its queue as new; deleting drops it for good."
        actions={
          <>
            <DeadLetterFilters query={query} stats={stats.data} onChange={change} />
            <Button variant="secondary" onClick={() => afterChange('')}>
              Refresh
            </Button>
          </>
        }
      />
      {done && (
        <div className="mb-4">
          <Notice>{done}</Notice>
        </div>
      )}
      {admin && items.length > 0 && (
        <BulkBar
          pageIds={items.map((message) => message.message_id)}
          selected={selected}
          onSelect={setSelected}
          total={total}
          onSelection={(verb) => actions.selection([...selected], verb)}
          onMatching={(verb) => actions.matching(query, total ? capitalize(total) : 'All matching messages', verb)}
        />
      )}
      {dead.loading && <Loading />}
      {dead.error !== undefined && <ErrorNotice error={dead.error} onRetry={dead.reload} />}
      {dead.data?.items.length === 0 && (
        <Empty title={query.queue ? `No dead letters in ${query.queue}` : 'No dead letters'}>Nothing has failed for good. Good.</Empty>
      )}
      {items.length > 0 && (
        <div className="space-y-3" data-testid="dead-letters">
          {items.map((message) => (
            <MessageDetails
              key={message.message_id}
              message={message}
              showQueue
              select={
                admin && (
                  <input
                    type="checkbox"
                    checked={selected.has(message.message_id)}
                    onChange={() => toggle(message.message_id)}
                    aria-label={`Select message ${message.message_id}`}
                    className="size-4 rounded border-slate-300 text-indigo-600"
                  />
                )
              }
              actions={
                admin && (
                  <>
                    <Button size="sm" variant="secondary" onClick={() => actions.one(message, 'replay')} aria-label={`Replay message ${message.message_id}`}>
                      Replay
                    </Button>
                    <Button size="sm" variant="quietDanger" onClick={() => actions.one(message, 'delete')} aria-label={`Delete message ${message.message_id}`}>
                      Delete
                    </Button>
                  </>
                )
              }
            />
          ))}
        </div>
      )}
      <Pager pages={pages} nextCursor={dead.data?.next_cursor} label="Pages of dead letters" />
      {actions.dialog}
    </>
  );
}
