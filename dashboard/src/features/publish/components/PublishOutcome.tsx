import type { PublishResult } from '@miniqueue/sdk';
import { Card } from '../../../lib/ui/Card';

export function PublishOutcome({ topic, result }: { topic: string; result: PublishResult }) {
  return (
    <Card title="Published">
      <div role="status" data-testid="publish-outcome" className="space-y-3 text-sm">
        {result.duplicate && (
          <p className="rounded-md bg-amber-50 px-3 py-2 text-amber-900 ring-1 ring-amber-200">
            This repeats an earlier publish with the same idempotency key: nothing new was stored, these are the original messages.
          </p>
        )}
        {result.queues.length === 0 ? (
          <p className="text-slate-700">
            No queue bound to <strong>{topic}</strong> took it (none is bound, or no queue&apos;s filter matched its headers), so the message was not stored
            anywhere.
          </p>
        ) : (
          <>
            <p className="text-slate-700">
              Fanned out from <strong>{topic}</strong> to {result.queues.length} {result.queues.length === 1 ? 'queue' : 'queues'}:
            </p>
            <ul className="space-y-1.5">
              {result.queues.map((queue, index) => (
                <li key={queue} className="rounded-md bg-slate-50 px-3 py-2 ring-1 ring-slate-200">
                  <span className="font-medium text-slate-900">{queue}</span>
                  <code className="block break-all font-mono text-xs text-slate-500">{result.message_ids[index]}</code>
                </li>
              ))}
            </ul>
          </>
        )}
      </div>
    </Card>
  );
}
