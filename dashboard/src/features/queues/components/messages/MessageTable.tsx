import { Fragment, useState } from 'react';
import type { Message } from '@miniqueue/sdk';
import { compactPayload, formatClock, formatTime, shortId } from '../../../../lib/format';
import { StatusBadge } from '../../../../lib/ui/Status';
import { MessageDetails } from './MessageDetails';

const CELL = 'px-2 py-1.5 align-middle first:pl-3 last:pr-3';

/**
 * A page of messages as one line each (status, when published, ordering key, the payload's start);
 * a row opens to the whole message. Retries and the consumer need a wider screen.
 */
export function MessageTable({ messages }: { messages: Message[] }) {
  const [open, setOpen] = useState<ReadonlySet<string>>(new Set());
  const toggle = (id: string) =>
    setOpen((previous) => {
      const next = new Set(previous);
      if (!next.delete(id)) next.add(id);
      return next;
    });
  return (
    <div className="overflow-hidden rounded-md ring-1 ring-slate-200" data-testid="listing">
      <table className="w-full table-fixed text-sm">
        <colgroup>
          <col className="w-8" />
          <col className="w-22 sm:w-24" />
          <col className="w-20 sm:w-44" />
          <col className="hidden w-28 md:table-column" />
          <col />
          <col className="hidden w-16 lg:table-column" />
          <col className="hidden w-36 lg:table-column" />
        </colgroup>
        <thead className="bg-slate-50 text-left text-xs font-semibold text-slate-600">
          <tr>
            <th scope="col" className={CELL}>
              <span className="sr-only">Open</span>
            </th>
            <th scope="col" className={CELL}>
              Status
            </th>
            <th scope="col" className={CELL}>
              Published
            </th>
            <th scope="col" className={`${CELL} hidden md:table-cell`}>
              Ordering key
            </th>
            <th scope="col" className={CELL}>
              Payload
            </th>
            <th scope="col" className={`${CELL} hidden text-right lg:table-cell`}>
              Retries
            </th>
            <th scope="col" className={`${CELL} hidden lg:table-cell`}>
              Consumer
            </th>
          </tr>
        </thead>
        <tbody className="divide-y divide-slate-100">
          {messages.map((message) => {
            const expanded = open.has(message.message_id);
            return (
              <Fragment key={message.message_id}>
                <tr
                  data-message-row={message.message_id}
                  className={`cursor-pointer hover:bg-slate-50 ${expanded ? 'bg-indigo-50/40' : ''}`}
                  onClick={() => toggle(message.message_id)}
                >
                  <td className={CELL}>
                    <button
                      type="button"
                      aria-expanded={expanded}
                      aria-label={`${expanded ? 'Close' : 'Open'} message ${shortId(message.message_id)}`}
                      onClick={(event) => {
                        event.stopPropagation();
                        toggle(message.message_id);
                      }}
                      className="rounded px-1 text-slate-600 hover:bg-slate-200"
                    >
                      <span aria-hidden>{expanded ? '▾' : '▸'}</span>
                    </button>
                  </td>
                  <td className={CELL}>
                    <StatusBadge status={message.status} />
                  </td>
                  <td className={`${CELL} truncate text-xs tabular-nums text-slate-700`} title={formatTime(message.published_at)}>
                    {/* A phone has room for the time of day; the whole date is in the title and the opened row. */}
                    <span className="sm:hidden">{formatClock(message.published_at.toISOString())}</span>
                    <span className="hidden sm:inline">{formatTime(message.published_at)}</span>
                    {message.ordering_key && <span className="block truncate font-mono text-slate-600 md:hidden">key {message.ordering_key}</span>}
                  </td>
                  <td
                    className={`${CELL} hidden truncate font-mono text-xs text-slate-700 md:table-cell`}
                    data-key="ordering-key"
                    title={message.ordering_key ?? undefined}
                  >
                    {message.ordering_key ?? <span className="text-slate-500">—</span>}
                  </td>
                  <td className={`${CELL} truncate font-mono text-xs text-slate-800`} data-key="payload">
                    {compactPayload(message.payload)}
                  </td>
                  <td className={`${CELL} hidden text-right tabular-nums text-slate-700 lg:table-cell`}>{message.retry_count}</td>
                  <td className={`${CELL} hidden truncate text-xs text-slate-700 lg:table-cell`} title={message.consumer_id ?? undefined}>
                    {message.consumer_id ?? '—'}
                  </td>
                </tr>
                {expanded && (
                  <tr>
                    <td colSpan={7} className="bg-slate-50 p-2">
                      <MessageDetails message={message} />
                    </td>
                  </tr>
                )}
              </Fragment>
            );
          })}
        </tbody>
      </table>
    </div>
  );
}
