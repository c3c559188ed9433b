import { useState } from 'react';
import type { ReplayFrom } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { formatCount } from '../../../lib/format';
import { Button } from '../../../lib/ui/Button';
import { useConfirm } from '../../../lib/ui/ConfirmDialog';
import { SelectField, TextField } from '../../../lib/ui/Field';
import { FormFailure } from '../../../lib/ui/FormFailure';
import { Notice } from '../../../lib/ui/States';
import { useSubmit } from '../../../lib/useSubmit';
import { countReplay, replayFromHistory } from '../api/historyReplay';

/** A datetime-local value (the browser's own time zone), one hour ago. */
function anHourAgo(): string {
  const date = new Date(Date.now() - 3_600_000);
  return new Date(date.getTime() - date.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
}

const messages = (n: number) => `${formatCount(n)} ${n === 1 ? 'message' : 'messages'}`;

/** Replay from history (admins): the queue's retained acked messages since a time or after an id, delivered again. */
export function HistoryReplay({ queue }: { queue: string }) {
  const { mq, admin } = useSession();
  const [mode, setMode] = useState<'since' | 'after'>('since');
  const [since, setSince] = useState(anHourAgo);
  const [afterId, setAfterId] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const confirm = useConfirm();
  const from = (): ReplayFrom => (mode === 'since' ? { since: new Date(since) } : { afterId: afterId.trim() });
  const described = () => (mode === 'since' ? `published since ${new Date(since).toLocaleString()}` : `published after ${afterId.trim()}`);

  const count = useSubmit(() => countReplay(mq, queue, from()), {
    onSuccess: (counted) =>
      confirm.ask({
        title: `Replay ${messages(counted.messages)} of ${queue}?`,
        body: `The acked ${counted.messages === 1 ? 'message' : 'messages'} of ${queue} ${described()} ${counted.messages === 1 ? 'is' : 'are'} delivered again as new messages, each naming its original (header miniqueue-replay-of).`,
        confirmLabel: `Replay ${formatCount(counted.messages)}`,
        tone: 'primary',
        action: async () => {
          const result = await replayFromHistory(mq, queue, from());
          setDone(`Replayed ${messages(result.messages)} to ${queue}.`);
        },
      }),
  });
  if (!admin) return null;

  return (
    <section aria-label={`Replay ${queue} from history`} className="px-3 py-4 sm:px-4">
      <h3 className="text-sm font-semibold text-slate-900">Replay from history</h3>
      <form
        onSubmit={(event) => {
          setDone(null);
          count.onSubmit(event);
        }}
        className="mt-2 flex flex-wrap items-end gap-3"
      >
        <SelectField label="Messages published" value={mode} onChange={(event) => setMode(event.target.value as 'since' | 'after')} className="w-44">
          <option value="since">since a time</option>
          <option value="after">after a message</option>
        </SelectField>
        {mode === 'since' ? (
          <TextField label="Since" type="datetime-local" required value={since} onChange={(event) => setSince(event.target.value)} />
        ) : (
          <TextField label="Message id" required value={afterId} onChange={(event) => setAfterId(event.target.value)} className="min-w-72" />
        )}
        <Button type="submit" variant="secondary" busy={count.busy}>
          Replay…
        </Button>
      </form>
      <FormFailure failure={count.failure} className="mt-3" />
      {done && (
        <div className="mt-3">
          <Notice>{done}</Notice>
        </div>
      )}
      {confirm.dialog}
    </section>
  );
}
