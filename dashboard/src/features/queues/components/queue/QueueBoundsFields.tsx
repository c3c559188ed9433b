import type { Overflow } from '@miniqueue/sdk';
import { SelectField, TextField } from '../../../../lib/ui/Field';
import { OVERFLOW_HINTS, OVERFLOW_LABELS, type BoundsForm } from '../../api/boundSettings';

const BOUND_FIELDS = [
  { field: 'maxMessages', label: 'Max messages', hint: 'Pending + unacked at once. Empty: no bound.' },
  { field: 'maxBytes', label: 'Max bytes', hint: 'Payload bytes (UTF-8), pending + unacked. Empty: no bound.' },
] as const;

/** A queue's bounds and what it does when full; a change applies to what is published after it. */
export function QueueBoundsFields({
  form,
  problems,
  onChange,
}: {
  form: BoundsForm;
  problems: Partial<Record<'maxMessages' | 'maxBytes', string>>;
  onChange: <F extends keyof BoundsForm>(field: F, value: BoundsForm[F]) => void;
}) {
  return (
    <div className="grid gap-3 sm:grid-cols-3 xl:grid-cols-1">
      {BOUND_FIELDS.map(({ field, label, hint }) => (
        <TextField
          key={field}
          label={label}
          inputMode="numeric"
          value={form[field]}
          onChange={(event) => onChange(field, event.target.value)}
          error={problems[field]}
          placeholder="no bound"
          hint={hint}
        />
      ))}
      <SelectField
        label="When full"
        value={form.overflow}
        onChange={(event) => onChange('overflow', event.target.value as Overflow)}
        hint={`${OVERFLOW_HINTS[form.overflow]} Applies to what is published after a change.`}
      >
        {Object.entries(OVERFLOW_LABELS).map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </SelectField>
    </div>
  );
}
