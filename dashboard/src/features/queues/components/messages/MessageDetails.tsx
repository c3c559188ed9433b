import type { ReactNode } from 'react';
import type { Message } from '@miniqueue/sdk';
import { formatTime, prettyPayload } from '../../../../lib/format';
import { StatusBadge } from '../../../../lib/ui/Status';
import { DeathFacts } from './DeathFacts';

/** One message: its facts in a row of labelled values, then the payload, indented when it is JSON. */
export function MessageDetails({
  message,
  actions,
  showQueue = false,
  select,
  highlight = false,
}: {
  message: Message;
  actions?: ReactNode;
  showQueue?: boolean;
  select?: ReactNode;
  highlight?: boolean;
}) {
  const payload = prettyPayload(message.payload);
  const headers = Object.entries(message.headers ?? {});
  return (
    <article className={`rounded-md bg-white p-3 ring-1 ${highlight ? 'ring-2 ring-indigo-400' : 'ring-slate-200'}`} data-message-id={message.message_id}>
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="flex min-w-0 flex-wrap items-center gap-2">
          {select}
          <StatusBadge status={message.status} />
          {showQueue && <span className="text-sm font-medium text-slate-900">{message.queue}</span>}
          <code className="break-all font-mono text-xs text-slate-600" title="Message id">
            {message.message_id}
          </code>
        </div>
        {actions && <div className="flex shrink-0 gap-2">{actions}</div>}
      </div>
      <dl className="mt-2 grid grid-cols-2 gap-x-4 gap-y-1 text-xs sm:grid-cols-5">
        <Fact label="Published">{formatTime(message.published_at)}</Fact>
        <Fact label="Ordering key">{message.ordering_key ?? '—'}</Fact>
        <Fact label="Retries">{message.retry_count}</Fact>
        <Fact label={message.status === 'UNACKED' ? 'Consumer' : 'Last consumer'}>{message.consumer_id ?? '—'}</Fact>
        <Fact label="Last claimed">{formatTime(message.unacked_at)}</Fact>
      </dl>
      {message.status === 'DEAD' && <DeathFacts message={message} />}
      {headers.length > 0 && (
        <p className="mt-2 flex flex-wrap gap-1 text-xs">
          {headers.map(([name, value]) => (
            <span key={name} className="rounded bg-slate-100 px-1.5 py-0.5 font-mono text-slate-700">
              {name}: {value}
            </span>
          ))}
        </p>
      )}
      <pre
        className="mt-2 max-h-64 overflow-auto rounded bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100"
        aria-label={payload.json ? 'Payload (JSON)' : 'Payload'}
      >
        {payload.text || <span className="italic text-slate-300">(empty payload)</span>}
      </pre>
    </article>
  );
}

export function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="min-w-0">
      <dt className="text-slate-600">{label}</dt>
      <dd className="truncate font-medium text-slate-800">{children}</dd>
    </div>
  );
}
