import { useState } from 'react';
import type { Queue, Topic } from '@miniqueue/sdk';
import { useSession } from '../../../app/session';
import { Button } from '../../../lib/ui/Button';
import { Card, PageHeader } from '../../../lib/ui/Card';
import { useConfirm } from '../../../lib/ui/ConfirmDialog';
import { Empty, ErrorNotice, Loading, Notice } from '../../../lib/ui/States';
import { useResource } from '../../../lib/useResource';
import { deleteQueue, deleteTopic, loadTopology } from '../api/topology';
import { Link } from '../../../lib/router';
import { QueueFeatureBadges } from '../../queues/components/QueueFeatureBadges';
import { queueHref } from '../../queues/components/queueColumns';
import { NewQueueForm } from './NewQueueForm';
import { NewTopicForm } from './NewTopicForm';

export function TopicsPage() {
  const { mq, admin } = useSession();
  const topology = useResource((signal) => loadTopology(mq, signal), [mq]);
  const [done, setDone] = useState<string | null>(null);
  const confirm = useConfirm();
  const changed = (message: string) => {
    setDone(message);
    topology.reload();
  };

  const askDeleteTopic = (topic: Topic) =>
    confirm.ask({
      title: `Delete topic ${topic.name}?`,
      body: 'Producers publishing to it will get “not found” from now on.',
      confirmLabel: 'Delete topic',
      action: async () => {
        await deleteTopic(mq, topic.name);
        changed(`Deleted topic ${topic.name}.`);
      },
    });

  const askDeleteQueue = (queue: string) =>
    confirm.ask({
      title: `Delete queue ${queue}?`,
      body: 'The queue and every message in it, dead letters included, are deleted. This cannot be undone.',
      confirmLabel: 'Delete queue',
      action: async () => {
        await deleteQueue(mq, queue);
        changed(`Deleted queue ${queue}.`);
      },
    });

  const topics = topology.data?.topics ?? [];
  return (
    <>
      <PageHeader title="Topics & queues" description="Producers publish to a topic; every queue bound to it gets its own copy of each message." />
      {done && (
        <div className="mb-4">
          <Notice>{done}</Notice>
        </div>
      )}
      <div className={`grid gap-6 ${admin ? 'xl:grid-cols-3' : ''}`}>
        <div className="space-y-4 xl:col-span-2">
          {topology.loading && <Loading />}
          {topology.error !== undefined && <ErrorNotice error={topology.error} onRetry={topology.reload} />}
          {topology.data && topics.length === 0 && (
            <Empty title="No topics yet">{admin ? 'Create the first one with the form.' : 'An administrator creates topics and queues.'}</Empty>
          )}
          {topics.map((topic) => (
            <TopicCard
              key={topic.name}
              topic={topic}
              queues={topology.data!.queues}
              admin={admin}
              onDeleteTopic={() => askDeleteTopic(topic)}
              onDeleteQueue={askDeleteQueue}
            />
          ))}
        </div>
        {admin && (
          <div className="space-y-4">
            <NewTopicForm onCreated={(name) => changed(`Created topic ${name}.`)} />
            <NewQueueForm
              topics={topics.map((topic) => topic.name)}
              onCreated={(queue) => changed(`Created queue ${queue.name}, bound to ${queue.topic_name}.`)}
            />
          </div>
        )}
      </div>
      {confirm.dialog}
    </>
  );
}

interface TopicCardProps {
  topic: Topic;
  queues: Map<string, Queue>;
  admin: boolean;
  onDeleteTopic: () => void;
  onDeleteQueue: (queue: string) => void;
}

function TopicCard({ topic, queues, admin, onDeleteTopic, onDeleteQueue }: TopicCardProps) {
  const bound = topic.queues.length > 0;
  return (
    <Card
      title={
        <span>
          <span className="mr-2 text-xs font-medium uppercase tracking-wide text-slate-500">Topic</span>
          {topic.name}
        </span>
      }
      actions={
        admin && (
          <Button
            variant="ghost"
            size="sm"
            onClick={onDeleteTopic}
            disabled={bound}
            title={bound ? 'Delete its queues first' : undefined}
            aria-label={`Delete topic ${topic.name}`}
          >
            Delete
          </Button>
        )
      }
    >
      {!bound ? (
        <p className="text-sm text-slate-500">No queues bound: messages published here are stored nowhere.{admin && ' Bind a queue with the form.'}</p>
      ) : (
        <ul className="divide-y divide-slate-100" aria-label={`Queues of ${topic.name}`}>
          {topic.queues.map((name) => {
            const queue = queues.get(name);
            return (
              <li key={name} className="flex flex-wrap items-center justify-between gap-2 py-2 text-sm">
                <span className="flex flex-wrap items-center gap-2">
                  <Link href={queueHref(name)} className="break-all font-medium text-indigo-700 hover:underline">
                    {name}
                  </Link>
                  {queue && <QueueFeatureBadges queue={queue} />}
                </span>
                <span className="flex items-center gap-3 text-xs text-slate-500">
                  {queue && (
                    <>
                      <span>ack timeout {queue.ack_timeout_seconds} s</span>
                      <span>max retries {queue.max_retries}</span>
                    </>
                  )}
                  {admin && (
                    <Button variant="ghost" size="sm" onClick={() => onDeleteQueue(name)} aria-label={`Delete queue ${name}`}>
                      Delete
                    </Button>
                  )}
                </span>
              </li>
            );
          })}
        </ul>
      )}
    </Card>
  );
}
