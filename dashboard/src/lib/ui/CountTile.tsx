import type { ReactNode } from 'react';
import { formatCount } from '../format';
import { STATUS_COLOURS, type StatusName } from './Status';

/** A count of messages in one status, in that status's colour (grey when there are none). */
export function CountTile({
  status,
  label,
  value,
  meaning,
  large = false,
  testId,
}: {
  status: StatusName;
  label: string;
  value: number;
  meaning?: ReactNode;
  large?: boolean;
  testId?: string;
}) {
  return (
    <div className={`rounded-lg bg-white shadow-xs ring-1 ring-slate-200 ${large ? 'p-4' : 'p-3'}`}>
      <dt className={`flex items-center gap-2 font-medium text-slate-600 ${large ? 'text-sm' : 'text-xs'}`}>
        <span className={`rounded-full ${large ? 'size-2.5' : 'size-2'} ${STATUS_COLOURS[status].bar}`} aria-hidden />
        {label}
      </dt>
      <dd
        className={`font-semibold tabular-nums ${large ? 'mt-1 text-3xl' : 'mt-0.5 text-2xl'} ${value > 0 ? STATUS_COLOURS[status].text : 'text-slate-600'}`}
        data-testid={testId}
      >
        {formatCount(value)}
      </dd>
      {meaning && <dd className="text-xs text-slate-500">{meaning}</dd>}
    </div>
  );
}
