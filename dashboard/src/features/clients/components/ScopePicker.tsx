import { useState, type ReactNode } from 'react';
import { Button } from '../../../lib/ui/Button';
import { isScope, type ScopeSelection } from '../api/scopes';

interface Props {
  selection: ScopeSelection;
  onChange: (selection: ScopeSelection) => void;
  topics: string[];
  queues: string[];
  error?: string;
}

export function ScopePicker({ selection, onChange, topics, queues, error }: Props) {
  const set = (patch: Partial<ScopeSelection>) => onChange({ ...selection, ...patch });
  const toggleIn = (list: string[], value: string) => (list.includes(value) ? list.filter((item) => item !== value) : [...list, value]);
  const limited = selection.admin;
  return (
    <fieldset aria-describedby={error ? 'scope-error' : undefined}>
      <legend className="text-sm font-medium text-slate-800">Scopes</legend>
      <div className="mt-2 space-y-3 text-sm">
        <Check checked={selection.admin} onChange={(admin) => set({ admin })} label="admin" hint="Everything: topics, queues, replay, clients." />
        <Check checked={selection.view} disabled={limited} onChange={(view) => set({ view })} label="view" hint="Read the dashboard and the live feed." />
        <Check checked={selection.metrics} disabled={limited} onChange={(metrics) => set({ metrics })} label="metrics" hint="Scrape /actuator/prometheus." />
        <Group title="Publish to">
          <Check checked={selection.publishAny} disabled={limited} onChange={(publishAny) => set({ publishAny })} label="any topic (publish:*)" />
          {topics.map((topic) => (
            <Check
              key={topic}
              checked={selection.publish.includes(topic)}
              disabled={limited || selection.publishAny}
              onChange={() => set({ publish: toggleIn(selection.publish, topic) })}
              label={topic}
              mono
            />
          ))}
        </Group>
        <Group title="Consume from">
          <Check checked={selection.consumeAny} disabled={limited} onChange={(consumeAny) => set({ consumeAny })} label="any queue (consume:*)" />
          {queues.map((queue) => (
            <Check
              key={queue}
              checked={selection.consume.includes(queue)}
              disabled={limited || selection.consumeAny}
              onChange={() => set({ consume: toggleIn(selection.consume, queue) })}
              label={queue}
              mono
            />
          ))}
        </Group>
        <OtherScope disabled={limited} onAdd={(scope) => set({ extra: [...new Set([...selection.extra, scope])] })} />
        {selection.extra.length > 0 && (
          <ul className="flex flex-wrap gap-1" aria-label="Other scopes">
            {selection.extra.map((scope) => (
              <li key={scope} className="inline-flex items-center gap-1 rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs">
                {scope}
                <button
                  type="button"
                  aria-label={`Remove ${scope}`}
                  className="text-slate-500 hover:text-slate-900"
                  onClick={() => set({ extra: selection.extra.filter((item) => item !== scope) })}
                >
                  ✕
                </button>
              </li>
            ))}
          </ul>
        )}
      </div>
      {error && (
        <p id="scope-error" className="mt-2 text-xs font-medium text-rose-700">
          {error}
        </p>
      )}
    </fieldset>
  );
}

function Check({
  checked,
  onChange,
  label,
  hint,
  disabled,
  mono,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  hint?: string;
  disabled?: boolean;
  mono?: boolean;
}) {
  return (
    <label className={`flex items-start gap-2 ${disabled ? 'opacity-50' : ''}`}>
      <input
        type="checkbox"
        className="mt-0.5 size-4 shrink-0 rounded border-slate-300 text-indigo-600"
        checked={checked}
        disabled={disabled}
        onChange={(event) => onChange(event.target.checked)}
      />
      <span className="min-w-0">
        <span className={mono ? 'break-all font-mono text-xs' : 'font-medium text-slate-800'}>{label}</span>
        {hint && <span className="block text-xs text-slate-500">{hint}</span>}
      </span>
    </label>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  return (
    <div role="group" aria-label={title}>
      <p className="mb-1 text-xs font-semibold uppercase tracking-wide text-slate-500">{title}</p>
      <div className="max-h-40 space-y-1.5 overflow-y-auto pl-1">{children}</div>
    </div>
  );
}

/** For a topic or queue that does not exist yet, or any scope typed out in full. */
function OtherScope({ onAdd, disabled }: { onAdd: (scope: string) => void; disabled: boolean }) {
  const [value, setValue] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const add = () => {
    const scope = value.trim();
    if (!isScope(scope)) return setProblem('Like publish:order.placed or consume:email-queue.');
    setProblem(null);
    setValue('');
    onAdd(scope);
  };
  return (
    <div>
      <label htmlFor="other-scope" className="text-xs font-semibold uppercase tracking-wide text-slate-500">
        Other scope
      </label>
      <div className="mt-1 flex gap-2">
        <input
          id="other-scope"
          value={value}
          disabled={disabled}
          placeholder="publish:future-topic"
          aria-invalid={problem ? true : undefined}
          aria-describedby={problem ? 'other-scope-error' : undefined}
          onChange={(event) => setValue(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
          className="block w-full min-w-0 rounded-md border-0 px-2.5 py-1.5 font-mono text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600 disabled:bg-slate-50"
        />
        <Button variant="secondary" size="sm" onClick={add} disabled={disabled}>
          Add
        </Button>
      </div>
      {problem && (
        <p id="other-scope-error" className="mt-1 text-xs text-rose-700">
          {problem}
        </p>
      )}
    </div>
  );
}
