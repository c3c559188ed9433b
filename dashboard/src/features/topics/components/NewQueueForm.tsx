import { useEffect, useState } from 'react';
import type { Fairness, Queue } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { Button } from '../../../lib/ui/Button';
import { Card } from '../../../lib/ui/Card';
import { SelectField, TextField } from '../../../lib/ui/Field';
import { FormFailure } from '../../../lib/ui/FormFailure';
import { useSubmit } from '../../../lib/useSubmit';
import { createQueue, filterOf, nameProblem } from '../api/topology';
import { HeaderFilterField, RequireOrderingKeyField } from './QueueRuleFields';
import { FAIRNESS_LABELS, perKeyLimitOf } from '../../queues/api/fairnessSettings';

interface Problems {
  name?: string;
  topic?: string;
  ackTimeout?: string;
  maxRetries?: string;
  filter?: string;
  fairness?: string;
  maxInFlightPerKey?: string;
}

/** Fair sharing and its per-key limit: the limit only with fairness by key, and fairness not with priorities. */
function checkFairness(fairness: Fairness, maxInFlightPerKey: string, maxPriority: string): Problems {
  if (fairness !== 'by_key') return {};
  const problems: Problems = {};
  if (maxPriority !== '') problems.fairness = 'Not with priorities: choose one or the other.';
  const limit = perKeyLimitOf(maxInFlightPerKey);
  if (typeof limit === 'string') problems.maxInFlightPerKey = limit;
  return problems;
}

/** Whole numbers in the broker's ranges; a message per field rather than one for the form. */
function check(name: string, topic: string, ackTimeout: string, maxRetries: string, filter: string): Problems {
  const problems: Problems = {};
  const nameIssue = nameProblem(name);
  if (nameIssue) problems.name = nameIssue;
  if (!topic) problems.topic = 'Choose the topic to bind to.';
  if (!/^\d+$/.test(ackTimeout) || Number(ackTimeout) < 1 || Number(ackTimeout) > 43200) problems.ackTimeout = 'A whole number of seconds from 1 to 43200.';
  if (!/^\d+$/.test(maxRetries) || Number(maxRetries) > 100) problems.maxRetries = 'A whole number from 0 to 100.';
  const filterIssue = filterOf(filter).problem;
  if (filterIssue) problems.filter = filterIssue;
  return problems;
}

export function NewQueueForm({ topics, onCreated }: { topics: string[]; onCreated: (queue: Queue) => void }) {
  const { mq } = useSession();
  const [name, setName] = useState('');
  const [topic, setTopic] = useState('');
  const [ackTimeout, setAckTimeout] = useState('30');
  const [maxRetries, setMaxRetries] = useState('5');
  const [filter, setFilter] = useState('');
  const [requireOrderingKey, setRequireOrderingKey] = useState(false);
  const [maxPriority, setMaxPriority] = useState('');
  const [fairness, setFairness] = useState<Fairness>('none');
  const [maxInFlightPerKey, setMaxInFlightPerKey] = useState('');
  const [problems, setProblems] = useState<Problems>({});
  const settings = () => ({
    ackTimeoutSeconds: Number(ackTimeout),
    maxRetries: Number(maxRetries),
    filter: filterOf(filter).filter,
    requireOrderingKey: requireOrderingKey || undefined,
    maxPriority: maxPriority === '' ? undefined : Number(maxPriority),
    fairness: fairness === 'none' ? undefined : fairness,
    maxInFlightPerKey: fairness === 'by_key' && maxInFlightPerKey.trim() !== '' ? Number(maxInFlightPerKey.trim()) : undefined,
  });
  const submission = useSubmit(() => createQueue(mq, name.trim(), topic, settings()), {
    validate: () => {
      const found = { ...check(name.trim(), topic, ackTimeout.trim(), maxRetries.trim(), filter), ...checkFairness(fairness, maxInFlightPerKey, maxPriority) };
      setProblems(found);
      return Object.keys(found).length === 0;
    },
    onSuccess: (queue) => {
      setName('');
      setFilter('');
      setRequireOrderingKey(false);
      setMaxPriority('');
      setFairness('none');
      setMaxInFlightPerKey('');
      onCreated(queue);
    },
  });

  useEffect(() => {
    if (!topics.includes(topic)) setTopic(topics[0] ?? '');
  }, [topics, topic]);

  return (
    <Card title="New queue">
      <form onSubmit={submission.onSubmit} className="space-y-3" noValidate aria-label="New queue">
        <TextField
          label="Queue name"
          name="queue-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="email-queue"
          error={problems.name}
        />
        <SelectField
          label="Bound to topic"
          name="queue-topic"
          value={topic}
          onChange={(event) => setTopic(event.target.value)}
          error={problems.topic}
          disabled={topics.length === 0}
          hint={topics.length === 0 ? 'Create a topic first.' : undefined}
        >
          {topics.map((name) => (
            <option key={name}>{name}</option>
          ))}
        </SelectField>
        <div className="grid grid-cols-2 gap-3">
          <TextField
            label="Ack timeout (s)"
            name="ack-timeout"
            inputMode="numeric"
            value={ackTimeout}
            onChange={(event) => setAckTimeout(event.target.value)}
            error={problems.ackTimeout}
            hint="Lease of a claimed message."
          />
          <TextField
            label="Max retries"
            name="max-retries"
            inputMode="numeric"
            value={maxRetries}
            onChange={(event) => setMaxRetries(event.target.value)}
            error={problems.maxRetries}
            hint="Then it goes dead."
          />
        </div>
        <HeaderFilterField
          label="Header filter (optional)"
          value={filter}
          onChange={setFilter}
          error={problems.filter}
          hint="JSON: only messages whose headers match reach this queue. Empty takes every message."
        />
        <RequireOrderingKeyField checked={requireOrderingKey} onChange={setRequireOrderingKey} />
        <SelectField
          label="Priorities"
          name="max-priority"
          value={maxPriority}
          onChange={(event) => setMaxPriority(event.target.value)}
          hint="Highest priority first (a publish's 0–9, capped at the maximum); fixed once the queue exists."
        >
          <option value="">None: oldest first</option>
          {[9, 8, 7, 6, 5, 4, 3, 2, 1].map((level) => (
            <option key={level} value={String(level)}>{`0–${level}`}</option>
          ))}
        </SelectField>
        <SelectField
          label="Fair sharing"
          name="fairness"
          value={fairness}
          onChange={(event) => setFairness(event.target.value as Fairness)}
          error={problems.fairness}
          hint="By key: claims take turns between the group keys with a message waiting (a publish's group key, else its ordering key); fixed once the queue exists."
        >
          {(Object.keys(FAIRNESS_LABELS) as Fairness[]).map((value) => (
            <option key={value} value={value}>
              {FAIRNESS_LABELS[value]}
            </option>
          ))}
        </SelectField>
        {fairness === 'by_key' && (
          <TextField
            label="Max in flight per key (optional)"
            name="max-in-flight-per-key"
            inputMode="numeric"
            value={maxInFlightPerKey}
            onChange={(event) => setMaxInFlightPerKey(event.target.value)}
            error={problems.maxInFlightPerKey}
            placeholder="no limit"
            hint="Unacked messages of one group key at once; a key at its limit waits while the others are delivered."
          />
        )}
        <FormFailure failure={submission.failure} />
        <Button type="submit" busy={submission.busy} disabled={topics.length === 0}>
          Create queue
        </Button>
      </form>
    </Card>
  );
}
