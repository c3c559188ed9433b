import type { OnExpiry } from '@miniqueue/sdk';
import { CheckboxField, SelectField, TextField } from '../../../../lib/ui/Field';
import { ON_EXPIRY_LABELS, type ExpiryForm } from '../../api/expirySettings';

/** A queue's time to live and where its dead letters go; a new TTL applies to what is published after it. */
export function ExpiryFields({
  form,
  problems,
  onChange,
}: {
  form: ExpiryForm;
  problems: Partial<Record<'messageTtlSeconds' | 'deadLetterTopic', string>>;
  onChange: <F extends keyof ExpiryForm>(field: F, value: ExpiryForm[F]) => void;
}) {
  return (
    <div className="space-y-3">
      <div className="grid gap-3 sm:grid-cols-3 xl:grid-cols-1">
        <TextField
          label="Message TTL (seconds)"
          inputMode="numeric"
          value={form.messageTtlSeconds}
          onChange={(event) => onChange('messageTtlSeconds', event.target.value)}
          error={problems.messageTtlSeconds}
          placeholder="no expiry"
          hint="Undelivered this long after its publish, a message is never delivered. Applies to what is published after a change."
        />
        <SelectField label="When expired" value={form.onExpiry} onChange={(event) => onChange('onExpiry', event.target.value as OnExpiry)}>
          {Object.entries(ON_EXPIRY_LABELS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </SelectField>
        <TextField
          label="Dead-letter topic"
          value={form.deadLetterTopic}
          onChange={(event) => onChange('deadLetterTopic', event.target.value)}
          error={problems.deadLetterTopic}
          placeholder="none"
          hint="Dead letters are published there, with miniqueue-death-* headers. Empty: none."
        />
      </div>
      <CheckboxField
        label="Also keep routed dead letters in this queue’s dead letters"
        name="dead-letter-keep"
        checked={form.deadLetterKeep}
        onChange={(checked) => onChange('deadLetterKeep', checked)}
      />
    </div>
  );
}
