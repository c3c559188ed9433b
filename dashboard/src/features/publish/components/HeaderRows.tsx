import type { Draft } from '../api/publish';
import { Button } from '../../../lib/ui/Button';

const INPUT = 'block w-full min-w-0 rounded-md border-0 px-2.5 py-1.5 font-mono text-sm ring-1 ring-inset ring-slate-300 focus:ring-2 focus:ring-indigo-600';

export function HeaderRows({ rows, onChange }: { rows: Draft['headers']; onChange: (rows: Draft['headers']) => void }) {
  const update = (index: number, field: 'name' | 'value', value: string) => onChange(rows.map((row, i) => (i === index ? { ...row, [field]: value } : row)));
  return (
    <fieldset>
      <legend className="text-sm font-medium text-slate-800">Headers</legend>
      <p className="text-xs text-slate-500">String metadata carried with the message; blank rows are ignored.</p>
      <div className="mt-2 space-y-2">
        {rows.map((row, index) => (
          <div key={index} className="flex items-center gap-2">
            <input
              aria-label={`Header ${index + 1} name`}
              placeholder="name"
              className={INPUT}
              value={row.name}
              onChange={(event) => update(index, 'name', event.target.value)}
            />
            <input
              aria-label={`Header ${index + 1} value`}
              placeholder="value"
              className={INPUT}
              value={row.value}
              onChange={(event) => update(index, 'value', event.target.value)}
            />
            <Button variant="ghost" size="sm" aria-label={`Remove header ${index + 1}`} onClick={() => onChange(rows.filter((_, i) => i !== index))}>
              ✕
            </Button>
          </div>
        ))}
      </div>
      <Button variant="secondary" size="sm" className="mt-2" onClick={() => onChange([...rows, { name: '', value: '' }])}>
        Add header
      </Button>
    </fieldset>
  );
}
