import { useState } from 'react';
import { MessageStatus } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { Button } from '../../../lib/ui/Button';
import { useConfirm } from '../../../lib/ui/ConfirmDialog';
import { Empty, ErrorNotice, Loading, Notice } from '../../../lib/ui/States';
import { useResource } from '../../../lib/useResource';
import { loadMessages, PAGE_SIZE, purgeQueue } from '../api/queues';
import { MessageDetails } from './MessageDetails';
import { cursorPages, Pager } from './Pager';

const STATUSES = Object.values(MessageStatus);

export function QueueMessages({ queue }: { queue: string }) {
  const { mq, admin } = useSession();
  const [status, setStatus] = useState<MessageStatus | ''>('');
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  const [purged, setPurged] = useState<number | null>(null);
  const pages = cursorPages(stack, setStack);
  const confirm = useConfirm();
  const messages = useResource(
    (signal) => loadMessages(mq, queue, { status: status || undefined, cursor: pages.cursor, signal }),
    [mq, queue, status, pages.cursor],
  );

  const askPurge = () =>
    confirm.ask({
      title: `Purge ${queue}?`,
      body: 'Every message of this queue is deleted, in every status, dead letters included. The queue itself stays. This cannot be undone.',
      confirmLabel: 'Purge messages',
      action: async () => {
        const result = await purgeQueue(mq, queue);
        setPurged(result.purged);
        pages.reset();
        messages.reload();
      },
    });

  return (
    <section aria-label={`Messages of ${queue}`} className="px-3 py-4 sm:px-4">
      <div className="mb-3 flex flex-wrap items-center justify-between gap-2">
        <label className="flex items-center gap-2 text-sm text-slate-700">
          Status
          <select
            value={status}
            onChange={(event) => {
              setStatus(event.target.value as MessageStatus | '');
              pages.reset();
            }}
            className="rounded-md border-0 py-1 pl-2 pr-7 text-sm ring-1 ring-inset ring-slate-300"
          >
            <option value="">All</option>
            {STATUSES.map((name) => (
              <option key={name}>{name}</option>
            ))}
          </select>
        </label>
        <div className="flex gap-2">
          <Button variant="secondary" size="sm" onClick={messages.reload}>
            Refresh
          </Button>
          {admin && (
            <Button variant="danger" size="sm" onClick={askPurge}>
              Purge…
            </Button>
          )}
        </div>
      </div>
      {purged !== null && <Notice>Purged {purged} {purged === 1 ? 'message' : 'messages'}.</Notice>}
      {messages.loading && <Loading label="Loading messages…" />}
      {messages.error !== undefined && <ErrorNotice error={messages.error} onRetry={messages.reload} />}
      {messages.data?.items.length === 0 && <Empty title={status ? `No ${status} messages` : 'This queue has no messages'} />}
      {messages.data && messages.data.items.length > 0 && (
        <div className="space-y-2">
          <p className="text-xs text-slate-500">
            Oldest first, {PAGE_SIZE} per page.
          </p>
          {messages.data.items.map((message) => (
            <MessageDetails key={message.message_id} message={message} />
          ))}
        </div>
      )}
      <Pager pages={pages} nextCursor={messages.data?.next_cursor} label={`Pages of ${queue}`} />
      {confirm.dialog}
    </section>
  );
}
