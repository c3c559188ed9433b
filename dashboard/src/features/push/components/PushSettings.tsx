import { useEffect, useState } from 'react';
import { useSession } from '../../../app/session';
import { Button } from '../../../lib/ui/Button';
import { useConfirm } from '../../../lib/ui/ConfirmDialog';
import { TextField } from '../../../lib/ui/Field';
import { FormFailure } from '../../../lib/ui/FormFailure';
import { ErrorNotice } from '../../../lib/ui/States';
import { useResource } from '../../../lib/useResource';
import { useSubmit } from '../../../lib/useSubmit';
import { clearPush, hasSecret, loadPush, rotatePushSecret, setPush } from '../api/push';
import { NewSecret } from './NewSecret';
import { PushDeliveryHealth } from './PushDeliveryHealth';

/** A queue's push endpoint: shown to viewers; set, rotated and removed by admins. */
export function PushSettings({ queue }: { queue: string }) {
  const { mq, admin } = useSession();
  const endpoint = useResource((signal) => loadPush(mq, queue, signal), [mq, queue]);
  const [url, setUrl] = useState('');
  const [maxInFlight, setMaxInFlight] = useState('4');
  const [timeoutSeconds, setTimeoutSeconds] = useState('');
  // The form starts from what is set, so a change is an edit of the current endpoint.
  useEffect(() => {
    if (!endpoint.data) return;
    setUrl(endpoint.data.url);
    setMaxInFlight(String(endpoint.data.max_in_flight));
    setTimeoutSeconds(String(endpoint.data.timeout_seconds));
  }, [endpoint.data]);
  const [secret, setSecret] = useState<string | null>(null);
  const confirm = useConfirm();

  const save = useSubmit(
    () => setPush(mq, queue, url.trim(), { maxInFlight: Number(maxInFlight), timeoutSeconds: timeoutSeconds.trim() ? Number(timeoutSeconds) : undefined }),
    {
      onSuccess: (saved) => {
        if (hasSecret(saved)) setSecret(saved.secret);
        endpoint.reload();
      },
    },
  );
  const askRotate = () =>
    confirm.ask({
      title: `New signing secret for ${queue}?`,
      body: 'The new secret is shown once. For an hour pushes are signed with both, so the receiver can switch over.',
      confirmLabel: 'Rotate secret',
      tone: 'primary',
      action: async () => {
        setSecret((await rotatePushSecret(mq, queue)).secret);
        endpoint.reload();
      },
    });
  const askClear = () =>
    confirm.ask({
      title: `Stop pushing ${queue}?`,
      body: 'No new push starts; the messages stay in the queue for pull consumers.',
      confirmLabel: 'Remove endpoint',
      action: async () => {
        await clearPush(mq, queue);
        setSecret(null);
        endpoint.reload();
      },
    });

  const current = endpoint.data;
  return (
    <section aria-label={`Push endpoint of ${queue}`} className="px-3 py-4 sm:px-4">
      <h3 className="text-sm font-semibold text-slate-900">Push endpoint</h3>
      {endpoint.error !== undefined && <ErrorNotice error={endpoint.error} onRetry={endpoint.reload} />}
      {current === null && <p className="mt-1 text-sm text-slate-600">None: consumers pull this queue&apos;s messages.</p>}
      {current && (
        <p className="mt-1 break-all text-sm text-slate-700" data-testid="push-url">
          POSTs to <span className="font-mono">{current.url}</span>, at most {current.max_in_flight} at once, each given {current.timeout_seconds} s to answer.
        </p>
      )}
      {current && <PushDeliveryHealth queue={queue} initial={current} />}
      {secret && <NewSecret queue={queue} secret={secret} onDone={() => setSecret(null)} />}
      {admin && (
        <form onSubmit={save.onSubmit} className="mt-2 flex flex-wrap items-end gap-3" aria-label={`Set the push endpoint of ${queue}`}>
          <TextField
            label="Endpoint URL"
            type="url"
            required
            placeholder="https://hooks.example.com/miniqueue"
            value={url}
            onChange={(event) => setUrl(event.target.value)}
            className="min-w-72 flex-1"
          />
          <TextField
            label="At most in flight"
            type="number"
            min={1}
            max={100}
            required
            value={maxInFlight}
            onChange={(event) => setMaxInFlight(event.target.value)}
            className="w-36"
          />
          <TextField
            label="Timeout (seconds)"
            type="number"
            min={1}
            placeholder="default"
            value={timeoutSeconds}
            onChange={(event) => setTimeoutSeconds(event.target.value)}
            className="w-36"
          />
          <Button type="submit" variant="secondary" busy={save.busy}>
            {current ? 'Change endpoint' : 'Set endpoint'}
          </Button>
          {current && (
            <>
              <Button variant="secondary" onClick={askRotate}>
                Rotate secret…
              </Button>
              <Button variant="danger" onClick={askClear}>
                Remove…
              </Button>
            </>
          )}
        </form>
      )}
      <FormFailure failure={save.failure} className="mt-3" />
      {confirm.dialog}
    </section>
  );
}
