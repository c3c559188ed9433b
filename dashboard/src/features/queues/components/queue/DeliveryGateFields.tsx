import { CheckboxField, TextField } from '../../../../lib/ui/Field';
import type { SettingsForm } from '../../api/settings';

/**
 * Who is given the queue's messages and how fast: one consumer at a time, and a delivery rate
 * shared by every broker instance. Both apply from the next claim.
 */
export function DeliveryGateFields({
  form,
  error,
  onChange,
}: {
  form: SettingsForm;
  error?: string;
  onChange: <F extends keyof SettingsForm>(field: F, value: SettingsForm[F]) => void;
}) {
  return (
    <div className="space-y-3">
      <CheckboxField
        label="One consumer at a time (the next takes over when it stops)"
        name="single-active-consumer"
        checked={form.singleActiveConsumer}
        onChange={(checked) => onChange('singleActiveConsumer', checked)}
      />
      <TextField
        label="Max deliveries per second"
        inputMode="numeric"
        value={form.maxDeliveriesPerSecond}
        onChange={(event) => onChange('maxDeliveriesPerSecond', event.target.value)}
        error={error}
        placeholder="no limit"
        hint="Across every broker instance; claims beyond it wait. Empty: no limit."
      />
    </div>
  );
}
