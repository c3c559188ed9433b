import { useState, type FormEvent } from 'react';
import { useSession } from '../../../app/session';
import { describeError } from '../../../lib/errors';
import { Button } from '../../../lib/ui/Button';
import { Card } from '../../../lib/ui/Card';
import { TextField } from '../../../lib/ui/Field';
import { createTopic, nameProblem } from '../api/topology';

export function NewTopicForm({ onCreated }: { onCreated: (name: string) => void }) {
  const { mq } = useSession();
  const [name, setName] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = nameProblem(name.trim());
    if (problem) return setError(problem);
    setBusy(true);
    setError(null);
    try {
      const created = await createTopic(mq, name.trim());
      setName('');
      onCreated(created.name);
    } catch (failure) {
      setError(describeError(failure));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="New topic">
      <form onSubmit={submit} className="space-y-3" noValidate aria-label="New topic">
        <TextField label="Topic name" name="topic-name" value={name} onChange={(event) => setName(event.target.value)} placeholder="order.placed" error={error} hint="Letters, digits, . _ -; stored in lowercase." />
        <Button type="submit" busy={busy}>
          Create topic
        </Button>
      </form>
    </Card>
  );
}
