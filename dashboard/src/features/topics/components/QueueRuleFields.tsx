import { TextArea } from '../../../lib/ui/Field';

/**
 * Which messages a queue takes: its header filter (JSON, checked with `filterOf`, then in full by the
 * broker) and whether each message needs an ordering key. Shared by the new-queue form and a queue's settings.
 */
export function HeaderFilterField({
  label,
  hint,
  value,
  onChange,
  error,
  rows = 3,
}: {
  label: string;
  hint: string;
  value: string;
  onChange: (text: string) => void;
  error?: string;
  rows?: number;
}) {
  return (
    <TextArea
      label={label}
      name="queue-filter"
      rows={rows}
      spellCheck={false}
      value={value}
      onChange={(event) => onChange(event.target.value)}
      error={error}
      placeholder='{"header": "region", "one_of": ["eu", "us"]}'
      hint={hint}
    />
  );
}

export function RequireOrderingKeyField({ checked, onChange }: { checked: boolean; onChange: (checked: boolean) => void }) {
  return (
    <label className="inline-flex items-center gap-2 text-sm text-slate-700">
      <input
        type="checkbox"
        name="require-ordering-key"
        checked={checked}
        onChange={(event) => onChange(event.target.checked)}
        className="size-4 rounded border-slate-300 text-indigo-600"
      />
      Require an ordering key on every message
    </label>
  );
}
