import { useState } from 'react';
import { useSession } from '../../../../app/session';
import { capitalize } from '../../../../lib/format';
import { Button } from '../../../../lib/ui/Button';
import { useConfirm } from '../../../../lib/ui/ConfirmDialog';
import { Empty, ErrorNotice, Loading, Notice } from '../../../../lib/ui/States';
import { useResource } from '../../../../lib/useResource';
import { describeTotal, loadMessages, pageCount, PAGE_SIZE, purgeQueue, type MessageQuery } from '../../api/queues';
import { cursorPages, Pager } from '../Pager';
import { MessageFilters } from './MessageFilters';
import { MessageLookup } from './MessageLookup';
import { MessageTable } from './MessageTable';

/** A queue's messages: newest or oldest first, by status or header value, or one found by id. */
export function QueueMessages({ queue }: { queue: string }) {
  const { mq, admin } = useSession();
  const [query, setQuery] = useState<MessageQuery>({ order: 'desc' });
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  const [purged, setPurged] = useState<number | null>(null);
  const pages = cursorPages(stack, setStack);
  const confirm = useConfirm();
  const messages = useResource((signal) => loadMessages(mq, queue, query, { cursor: pages.cursor, signal }), [mq, queue, query, pages.cursor]);
  const change = (next: MessageQuery) => {
    setQuery(next);
    pages.reset();
  };

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

  const page = messages.data;
  const total = page && describeTotal(page, query.status);
  const atNewest = query.order === 'desc' && pages.page === 1;
  return (
    <section aria-label={`Messages of ${queue}`} className="space-y-3">
      <MessageLookup queue={queue} />
      <div className="flex flex-wrap items-end justify-between gap-2 border-t border-slate-100 pt-3">
        <MessageFilters query={query} onChange={change} />
        <div className="flex gap-2">
          {!atNewest && (
            <Button variant="secondary" size="sm" onClick={() => change({ ...query, order: 'desc' })}>
              Jump to newest
            </Button>
          )}
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
      {purged !== null && (
        <Notice>
          Purged {purged} {purged === 1 ? 'message' : 'messages'}.
        </Notice>
      )}
      {messages.loading && <Loading label="Loading messages…" />}
      {messages.error !== undefined && <ErrorNotice error={messages.error} onRetry={messages.reload} />}
      {page && (
        <p className="text-xs text-slate-500" data-testid="message-total">
          {total ? capitalize(total) : `Messages with header ${query.header?.name} = ${query.header?.value}`}
          {' · '}
          {query.order === 'desc' ? 'newest' : 'oldest'} first by publish time, {PAGE_SIZE} per page.
        </p>
      )}
      {page?.items.length === 0 && (
        <Empty
          title={query.header ? 'No match among the messages searched so far' : query.status ? `No ${query.status} messages` : 'This queue has no messages'}
        >
          {query.header && page.next_cursor && 'Each page looks through up to 5,000 messages: go to the next page to search further.'}
        </Empty>
      )}
      {page && page.items.length > 0 && <MessageTable messages={page.items} />}
      <Pager pages={pages} nextCursor={page?.next_cursor} label={`Pages of ${queue}`} pageCount={page && pageCount(page)} />
      {confirm.dialog}
    </section>
  );
}
