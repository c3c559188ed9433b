import { useState } from 'react';
import type { Message } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { formatCount, shortId } from '../../../lib/format';
import { Button } from '../../../lib/ui/Button';
import { PageHeader } from '../../../lib/ui/Card';
import { useConfirm } from '../../../lib/ui/ConfirmDialog';
import { Empty, ErrorNotice, Loading, Notice } from '../../../lib/ui/States';
import { useResource } from '../../../lib/useResource';
import { useRefreshOnActivity } from '../../live/components/MonitorProvider';
import { loadQueueStats } from '../../queues/api/queues';
import { MessageDetails } from '../../queues/components/messages/MessageDetails';
import { cursorPages, Pager } from '../../queues/components/Pager';
import { loadDeadLetters, replayOne, replayQueue } from '../api/deadLetters';

export function DeadLettersPage() {
  const { mq, admin } = useSession();
  const [queue, setQueue] = useState('');
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  const [done, setDone] = useState<string | null>(null);
  const pages = cursorPages(stack, setStack);
  const confirm = useConfirm();
  const stats = useResource((signal) => loadQueueStats(mq, signal), [mq]);
  const dead = useResource((signal) => loadDeadLetters(mq, { queue: queue || undefined, cursor: pages.cursor, signal }), [mq, queue, pages.cursor]);
  useRefreshOnActivity(stats.reload, 2000);

  const deadIn = stats.data?.find((row) => row.queue === queue)?.dead ?? 0;
  const totalDead = stats.data?.reduce((sum, row) => sum + row.dead, 0);
  const afterChange = (message: string) => {
    setDone(message || null);
    dead.reload();
    stats.reload();
  };

  const askReplay = (message: Message) =>
    confirm.ask({
      title: 'Replay this message?',
      body: `Message ${shortId(message.message_id)}… goes back to ${message.queue} as PENDING with its retry count reset, and will be delivered again.`,
      confirmLabel: 'Replay',
      tone: 'primary',
      action: async () => {
        await replayOne(mq, message.message_id);
        afterChange(`Replayed message ${shortId(message.message_id)}… to ${message.queue}.`);
      },
    });

  const askReplayAll = () =>
    confirm.ask({
      title: `Replay all dead letters of ${queue}?`,
      body: `${formatCount(deadIn)} ${deadIn === 1 ? 'message goes' : 'messages go'} back to ${queue} as PENDING with their retry counts reset, oldest first.`,
      confirmLabel: `Replay ${formatCount(deadIn)}`,
      tone: 'primary',
      action: async () => {
        const result = await replayQueue(mq, queue);
        pages.reset();
        afterChange(`Replayed ${formatCount(result.replayed)} ${result.replayed === 1 ? 'message' : 'messages'} to ${queue}.`);
      },
    });

  return (
    <>
      <PageHeader
        title="Dead letters"
        description="Messages that ran out of retries or were rejected without requeue. Replaying one puts it back in its queue as new."
        actions={
          <>
            <label className="flex min-w-0 max-w-full items-center gap-2 text-sm text-slate-700">
              Queue
              <select
                value={queue}
                onChange={(event) => {
                  setQueue(event.target.value);
                  pages.reset();
                  setDone(null);
                }}
                className="min-w-0 max-w-full truncate rounded-md border-0 py-1.5 pl-2 pr-7 text-sm ring-1 ring-inset ring-slate-300 sm:max-w-72"
              >
                <option value="">All queues{totalDead !== undefined ? ` (${formatCount(totalDead)})` : ''}</option>
                {stats.data?.map((row) => (
                  <option key={row.queue} value={row.queue}>
                    {row.queue} ({formatCount(row.dead)})
                  </option>
                ))}
              </select>
            </label>
            <Button variant="secondary" onClick={() => afterChange('')}>
              Refresh
            </Button>
            {admin && queue && (
              <Button onClick={askReplayAll} disabled={deadIn === 0}>
                Replay all…
              </Button>
            )}
          </>
        }
      />
      {done && (
        <div className="mb-4">
          <Notice>{done}</Notice>
        </div>
      )}
      {dead.loading && <Loading />}
      {dead.error !== undefined && <ErrorNotice error={dead.error} onRetry={dead.reload} />}
      {dead.data?.items.length === 0 && <Empty title={queue ? `No dead letters in ${queue}` : 'No dead letters'}>Nothing has failed for good. Good.</Empty>}
      {dead.data && dead.data.items.length > 0 && (
        <div className="space-y-3" data-testid="dead-letters">
          {dead.data.items.map((message) => (
            <MessageDetails
              key={message.message_id}
              message={message}
              showQueue
              actions={
                admin && (
                  <Button size="sm" variant="secondary" onClick={() => askReplay(message)} aria-label={`Replay message ${message.message_id}`}>
                    Replay
                  </Button>
                )
              }
            />
          ))}
        </div>
      )}
      <Pager pages={pages} nextCursor={dead.data?.next_cursor} label="Pages of dead letters" />
      {confirm.dialog}
    </>
  );
}
