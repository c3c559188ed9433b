import { useState } from 'react';
import { NotFoundError, type Message } from '@miniqueue/sdk';
import { useSession } from '../../../../app/session';
import { describeError } from '../../../../lib/errors';
import { Link } from '../../../../lib/router';
import { Button } from '../../../../lib/ui/Button';
import { findMessage, messageIdOf } from '../../api/queues';
import { queueHref } from '../queueColumns';
import { MessageDetails } from './MessageDetails';

type Outcome = { found: Message } | { problem: string } | null;

/** Finds one message by its id, whatever its status or place in the queue. */
export function MessageLookup({ queue }: { queue?: string }) {
  const { mq } = useSession();
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const find = async (event: React.FormEvent) => {
    event.preventDefault();
    const id = messageIdOf(text);
    if (!id) return setOutcome({ problem: 'A message id looks like 3f2a9c1e-5b7d-4e8a-9c21-7d4e5f6a8b90.' });
    setBusy(true);
    try {
      setOutcome({ found: await findMessage(mq, id) });
    } catch (error) {
      setOutcome({
        problem:
          error instanceof NotFoundError ? `No message has the id ${id}: it may have been acked and dropped from history, or purged.` : describeError(error),
      });
    } finally {
      setBusy(false);
    }
  };

  return (
    <div>
      <form role="search" aria-label="Find a message by id" onSubmit={find} className="flex flex-wrap items-center gap-2">
        <input
          value={text}
          onChange={(event) => setText(event.target.value)}
          placeholder="Message id"
          aria-label="Message id"
          spellCheck={false}
          className="min-w-0 flex-1 rounded-md border-0 py-1 pl-2 pr-2 font-mono text-sm ring-1 ring-inset ring-slate-300 sm:max-w-96"
        />
        <Button type="submit" variant="secondary" size="sm" busy={busy}>
          Find
        </Button>
        {outcome && (
          <Button variant="ghost" size="sm" onClick={() => setOutcome(null)}>
            Close
          </Button>
        )}
      </form>
      {outcome && 'problem' in outcome && (
        <p role="alert" className="mt-2 text-sm text-rose-700">
          {outcome.problem}
        </p>
      )}
      {outcome && 'found' in outcome && (
        <div className="mt-2 space-y-1" data-testid="found-message">
          {queue && outcome.found.queue !== queue && (
            <p className="text-sm text-slate-600">
              This message is in{' '}
              <Link href={queueHref(outcome.found.queue)} className="font-medium text-indigo-700 hover:underline">
                {outcome.found.queue}
              </Link>
              , not in {queue}.
            </p>
          )}
          <MessageDetails message={outcome.found} showQueue={!queue || outcome.found.queue !== queue} highlight />
        </div>
      )}
    </div>
  );
}
