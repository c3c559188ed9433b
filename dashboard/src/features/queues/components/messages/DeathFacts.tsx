import type { DeadReason, Message } from '@miniqueue/sdk';
import { formatTime } from '../../../../lib/format';

export const REASON_LABELS: Record<DeadReason, string> = {
  NACKED: 'Rejected by a consumer',
  RETRIES_EXHAUSTED: 'Retries exhausted',
  EXPIRED: 'Lease expired, no retries left',
  OVERFLOW: 'Overflow: made room for newer messages',
  TTL_EXPIRED: 'Time to live ran out before delivery',
};

/** Why and when a dead message died, in the words the broker recorded. */
export function DeathFacts({ message }: { message: Message }) {
  return (
    <div className="mt-2 rounded bg-rose-50 px-2.5 py-2 text-xs text-rose-900 ring-1 ring-rose-200" data-testid="death">
      <p>
        <strong className="font-semibold" data-dead-reason={message.dead_reason}>
          {message.dead_reason ? REASON_LABELS[message.dead_reason] : 'Dead'}
        </strong>
        {message.dead_at && (
          <>
            {' '}
            at <time dateTime={message.dead_at.toISOString()}>{formatTime(message.dead_at)}</time>
          </>
        )}
      </p>
      {message.dead_detail && <p className="mt-0.5 break-words">{message.dead_detail}</p>}
    </div>
  );
}
