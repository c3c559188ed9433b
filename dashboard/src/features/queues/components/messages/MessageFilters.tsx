import { useState } from 'react';
import { MessageStatus } from '@miniqueue/sdk';
import { Button } from '../../../../lib/ui/Button';
import type { MessageOrder, MessageQuery } from '../../api/queues';

const STATUSES = Object.values(MessageStatus);
const CONTROL = 'rounded-md border-0 py-1 pl-2 text-sm ring-1 ring-inset ring-slate-300';

/** Which messages to list and in what order: status, newest or oldest first, one header's value. */
export function MessageFilters({ query, onChange }: { query: MessageQuery; onChange: (query: MessageQuery) => void }) {
  const [name, setName] = useState(query.header?.name ?? '');
  const [value, setValue] = useState(query.header?.value ?? '');
  const applyHeader = (event: React.FormEvent) => {
    event.preventDefault();
    onChange({ ...query, header: name.trim() ? { name: name.trim(), value } : undefined });
  };
  const clearHeader = () => {
    setName('');
    setValue('');
    onChange({ ...query, header: undefined });
  };

  return (
    <div className="flex flex-wrap items-end gap-x-4 gap-y-2">
      <label className="flex items-center gap-2 text-sm text-slate-700">
        Status
        <select
          value={query.status ?? ''}
          onChange={(event) => onChange({ ...query, status: (event.target.value || undefined) as MessageStatus | undefined })}
          className={`${CONTROL} pr-7`}
        >
          <option value="">All</option>
          {STATUSES.map((status) => (
            <option key={status}>{status}</option>
          ))}
        </select>
      </label>
      <div role="group" aria-label="Order" className="inline-flex rounded-md ring-1 ring-inset ring-slate-300">
        {(['desc', 'asc'] as MessageOrder[]).map((order) => (
          <button
            key={order}
            type="button"
            aria-pressed={query.order === order}
            onClick={() => onChange({ ...query, order })}
            className={`px-2.5 py-1 text-sm first:rounded-l-md last:rounded-r-md ${query.order === order ? 'bg-indigo-600 font-semibold text-white' : 'text-slate-700 hover:bg-slate-50'}`}
          >
            {order === 'desc' ? 'Newest first' : 'Oldest first'}
          </button>
        ))}
      </div>
      <form role="search" aria-label="Filter by header" onSubmit={applyHeader} className="flex min-w-0 flex-wrap items-center gap-2">
        <input
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="Header"
          aria-label="Header name"
          className={`${CONTROL} w-28 pr-2`}
        />
        <span className="text-slate-500" aria-hidden>
          =
        </span>
        <input
          value={value}
          onChange={(event) => setValue(event.target.value)}
          placeholder="value"
          aria-label="Header value"
          className={`${CONTROL} w-32 pr-2`}
        />
        <Button type="submit" variant="secondary" size="sm">
          Filter
        </Button>
        {query.header && (
          <Button variant="ghost" size="sm" onClick={clearHeader}>
            Clear
          </Button>
        )}
      </form>
    </div>
  );
}
