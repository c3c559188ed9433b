import { CheckboxField, TextField } from '../../../../lib/ui/Field';
import { THRESHOLDS } from '../../../attention/api/conditions';
import type { AttentionField, AttentionForm } from '../../api/attentionSettings';

/**
 * When the dashboard flags this queue: never (muted), or at its own thresholds instead of the
 * defaults. The alert rules keep the defaults.
 */
export function AttentionFields({
  form,
  problems,
  onChange,
}: {
  form: AttentionForm;
  problems: Partial<Record<AttentionField, string>>;
  onChange: <F extends keyof AttentionForm>(field: F, value: AttentionForm[F]) => void;
}) {
  return (
    <fieldset className="space-y-3" aria-label="Needs attention">
      <legend className="text-sm font-medium text-slate-900">Needs attention</legend>
      <CheckboxField
        label="Mute: never flag this queue (the alert rules still apply)"
        name="attention-muted"
        checked={form.attentionMuted}
        onChange={(checked) => onChange('attentionMuted', checked)}
      />
      {!form.attentionMuted && (
        <div className="grid gap-3 sm:grid-cols-3 xl:grid-cols-1">
          <TextField
            label="Oldest pending over (seconds)"
            inputMode="numeric"
            value={form.attentionOldestPendingSeconds}
            onChange={(event) => onChange('attentionOldestPendingSeconds', event.target.value)}
            error={problems.attentionOldestPendingSeconds}
            placeholder={`default ${THRESHOLDS.oldest.seconds}`}
            hint={`And over ${THRESHOLDS.oldest.timesUsual}× its usual age. Empty: the default.`}
          />
          <TextField
            label="Backlog growth over (messages in 5 min)"
            inputMode="numeric"
            value={form.attentionBacklogGrowth}
            onChange={(event) => onChange('attentionBacklogGrowth', event.target.value)}
            error={problems.attentionBacklogGrowth}
            placeholder="default 0"
            hint="While more is stored than acked. Empty: any growth."
          />
          <TextField
            label="Dead letters over (a minute)"
            inputMode="decimal"
            value={form.attentionDeadPerMinute}
            onChange={(event) => onChange('attentionDeadPerMinute', event.target.value)}
            error={problems.attentionDeadPerMinute}
            placeholder={`default ${THRESHOLDS.dead.perMinute}`}
            hint={`Over ${THRESHOLDS.dead.windowMinutes} minutes, and over 1 % of those settled. Empty: the default.`}
          />
        </div>
      )}
    </fieldset>
  );
}
