import { useState } from 'react';
import { useSession } from '../../../app/session';
import { Button } from '../../../lib/ui/Button';
import { Card } from '../../../lib/ui/Card';
import { TextField } from '../../../lib/ui/Field';
import { useSubmit } from '../../../lib/useSubmit';
import { createTopic, nameProblem } from '../api/topology';

export function NewTopicForm({ onCreated }: { onCreated: (name: string) => void }) {
  const { mq } = useSession();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const submission = useSubmit(() => createTopic(mq, name.trim()), {
    validate: () => {
      const found = nameProblem(name.trim());
      setProblem(found);
      return !found;
    },
    onSuccess: (created) => {
      setName('');
      onCreated(created.name);
    },
  });

  return (
    <Card title="New topic">
      <form onSubmit={submission.onSubmit} className="space-y-3" noValidate aria-label="New topic">
        {/* One field: the broker's refusal (a taken name) is shown where the name is typed. */}
        <TextField
          label="Topic name"
          name="topic-name"
          value={name}
          onChange={(event) => setName(event.target.value)}
          placeholder="order.placed"
          error={problem ?? submission.failure}
          hint="Letters, digits, . _ -; stored in lowercase."
        />
        <Button type="submit" busy={submission.busy}>
          Create topic
        </Button>
      </form>
    </Card>
  );
}
