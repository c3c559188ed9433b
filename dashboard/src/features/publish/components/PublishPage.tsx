import { useEffect, useState } from 'react';
import { LIMITS, type PublishResult } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { formatCount } from '../../../lib/format';
import { checkJson, utf8Bytes } from '../../../lib/json';
import { Link } from '../../../lib/router';
import { Button } from '../../../lib/ui/Button';
import { Card, PageHeader } from '../../../lib/ui/Card';
import { SelectField, TextArea, TextField } from '../../../lib/ui/Field';
import { FormFailure } from '../../../lib/ui/FormFailure';
import { Empty, ErrorNotice, Loading } from '../../../lib/ui/States';
import { useResource } from '../../../lib/useResource';
import { useSubmit } from '../../../lib/useSubmit';
import { expiresProblem, loadTopicNames, publishDraft, type Draft } from '../api/publish';
import { TEMPLATES } from '../api/templates';
import { HeaderRows } from './HeaderRows';
import { PublishOutcome } from './PublishOutcome';

/** The broker's default limit; a larger payload is refused with 413, and the message says so. */
const PAYLOAD_LIMIT = LIMITS.defaultPayloadBytes;

export function PublishPage() {
  const { mq } = useSession();
  const topics = useResource((signal) => loadTopicNames(mq, signal), [mq]);
  const [topic, setTopic] = useState('');
  const [payload, setPayload] = useState(() => TEMPLATES[0].payload());
  const [isJson, setIsJson] = useState(true);
  const [headers, setHeaders] = useState<Draft['headers']>([{ name: 'content-type', value: 'application/json' }]);
  const [delay, setDelay] = useState('0');
  const [idempotencyKey, setIdempotencyKey] = useState('');
  const [orderingKey, setOrderingKey] = useState('');
  const [priority, setPriority] = useState('');
  const [expiresInSeconds, setExpiresInSeconds] = useState('');
  const [groupKey, setGroupKey] = useState('');
  const [outcome, setOutcome] = useState<{ topic: string; result: PublishResult } | null>(null);

  useEffect(() => {
    if (topics.data && !topics.data.includes(topic)) setTopic(topics.data[0] ?? '');
  }, [topics.data, topic]);

  const json = isJson ? checkJson(payload) : { ok: true as const };
  const delayValid = /^\d+$/.test(delay.trim()) && Number(delay) <= 900;
  const expiresIssue = expiresProblem(expiresInSeconds);
  const valid = json.ok && delayValid && expiresIssue === null && topic !== '';
  const bytes = utf8Bytes(payload);

  const pickTemplate = (id: string) => {
    const template = TEMPLATES.find((candidate) => candidate.id === id);
    if (!template) return;
    setPayload(template.payload());
    setIsJson(template.json);
  };

  const submission = useSubmit(
    async () => ({
      topic,
      result: await publishDraft(mq, {
        topic,
        payload,
        headers,
        delaySeconds: Number(delay),
        idempotencyKey,
        orderingKey,
        priority,
        expiresInSeconds,
        groupKey,
      }),
    }),
    { validate: () => valid, onSuccess: setOutcome },
  );

  if (topics.loading) return <Loading />;
  if (topics.error !== undefined) return <ErrorNotice error={topics.error} onRetry={topics.reload} />;
  return (
    <>
      <PageHeader
        title="Publish"
        description="Send a message to a topic, as a producer would. Every queue bound to the topic whose filter matches gets a copy."
      />
      {topics.data?.length === 0 ? (
        <Empty title="No topics to publish to">
          Create one on{' '}
          <Link href="/topics" className="font-medium text-indigo-700 underline">
            Topics &amp; queues
          </Link>
          .
        </Empty>
      ) : (
        <div className="grid gap-6 xl:grid-cols-3">
          <Card title="Message" className="xl:col-span-2">
            <form onSubmit={submission.onSubmit} className="space-y-4" noValidate aria-label="Publish a message">
              <div className="grid gap-4 sm:grid-cols-2">
                <SelectField label="Topic" name="topic" value={topic} onChange={(event) => setTopic(event.target.value)}>
                  {topics.data?.map((name) => (
                    <option key={name}>{name}</option>
                  ))}
                </SelectField>
                <SelectField
                  label="Payload template"
                  name="template"
                  value=""
                  onChange={(event) => pickTemplate(event.target.value)}
                  hint="Replaces the payload below."
                >
                  <option value="">Choose a template…</option>
                  {TEMPLATES.map((template) => (
                    <option key={template.id} value={template.id}>
                      {template.label}
                    </option>
                  ))}
                </SelectField>
              </div>
              <TextArea
                label="Payload"
                name="payload"
                rows={10}
                spellCheck={false}
                value={payload}
                onChange={(event) => setPayload(event.target.value)}
                error={
                  json.ok
                    ? bytes > PAYLOAD_LIMIT
                      ? `${formatCount(bytes)} bytes: over the broker's default limit of ${formatCount(PAYLOAD_LIMIT)}.`
                      : null
                    : json.message
                }
                hint={`${formatCount(bytes)} bytes${isJson ? ' · valid JSON' : ''}`}
              />
              <div className="flex flex-wrap items-center gap-4">
                <label className="inline-flex items-center gap-2 text-sm text-slate-700">
                  <input
                    type="checkbox"
                    checked={isJson}
                    onChange={(event) => setIsJson(event.target.checked)}
                    className="size-4 rounded border-slate-300 text-indigo-600"
                  />
                  Check that the payload is JSON
                </label>
                {isJson && json.ok && (
                  <Button variant="ghost" size="sm" onClick={() => setPayload(JSON.stringify(JSON.parse(payload), null, 2))}>
                    Format JSON
                  </Button>
                )}
              </div>
              <HeaderRows rows={headers} onChange={setHeaders} />
              <div className="grid gap-4 sm:grid-cols-2">
                <TextField
                  label="Delay (seconds)"
                  name="delay"
                  inputMode="numeric"
                  value={delay}
                  onChange={(event) => setDelay(event.target.value)}
                  error={delayValid ? null : 'A whole number from 0 to 900.'}
                  hint="How long before consumers can claim it."
                />
                <TextField
                  label="Idempotency key (optional)"
                  name="idempotency-key"
                  value={idempotencyKey}
                  onChange={(event) => setIdempotencyKey(event.target.value)}
                  hint="Publishing again with the same key stores nothing new."
                />
                <TextField
                  label="Ordering key (optional)"
                  name="ordering-key"
                  value={orderingKey}
                  onChange={(event) => setOrderingKey(event.target.value)}
                  hint="Messages with the same key are delivered one at a time, in order."
                />
                <SelectField
                  label="Priority"
                  name="priority"
                  value={priority}
                  onChange={(event) => setPriority(event.target.value)}
                  hint="In queues with priorities: highest first. Others ignore it."
                >
                  <option value="">Default (0)</option>
                  {[9, 8, 7, 6, 5, 4, 3, 2, 1, 0].map((level) => (
                    <option key={level} value={String(level)}>
                      {level}
                    </option>
                  ))}
                </SelectField>
                <TextField
                  label="Expires in (seconds, optional)"
                  name="expires-in"
                  inputMode="numeric"
                  value={expiresInSeconds}
                  onChange={(event) => setExpiresInSeconds(event.target.value)}
                  error={expiresIssue}
                  hint="Never delivered after that; a queue's own TTL applies if it is earlier."
                />
                <TextField
                  label="Group key (optional)"
                  name="group-key"
                  value={groupKey}
                  onChange={(event) => setGroupKey(event.target.value)}
                  hint="The tenant it is shared out by in queues with fair sharing; else the ordering key."
                />
              </div>
              <FormFailure failure={submission.failure} />
              <Button type="submit" busy={submission.busy} disabled={!valid}>
                Publish to {topic || '…'}
              </Button>
            </form>
          </Card>
          <div>
            {outcome ? (
              <PublishOutcome topic={outcome.topic} result={outcome.result} />
            ) : (
              <Empty title="Nothing published yet">The queues a message reaches are listed here.</Empty>
            )}
          </div>
        </div>
      )}
    </>
  );
}
